// File: tests/e2e/replay_fixture.cc
#include "tests/e2e/replay_fixture.h"

#include "tests/e2e/replay/replay_executor.h"

namespace warpwatch::e2e {

StatusOr<ReplayFixture> LoadReplayFixture(const std::string& source_dir) {
  ReplayFixture fixture;
  fixture.path = source_dir + "/tests/fixtures/h100_nightly.json";
  ASSIGN_OR_RETURN(fixture.recording, LoadRunResult(fixture.path));
  if (fixture.recording.measurements_size() == 0) {
    return InvalidArgumentError(fixture.path + " holds no measurement");
  }
  return fixture;
}

}  // namespace warpwatch::e2e
