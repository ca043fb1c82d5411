// File: tests/e2e/replay_fixture.h
// The recording the end-to-end tests replay: tests/fixtures/h100_nightly.json, written on an H100
// by `warpwatch-worker run --out` (its `command` field says how).
#ifndef WARPWATCH_TESTS_E2E_REPLAY_FIXTURE_H_
#define WARPWATCH_TESTS_E2E_REPLAY_FIXTURE_H_

#include <string>

#include "common/status/status.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::e2e {

struct ReplayFixture {
  std::string path;          // the JSON the replay worker reads
  v1::RunResult recording;   // its content
};

// Loads `source_dir`/tests/fixtures/h100_nightly.json. NOT_FOUND when it is missing.
StatusOr<ReplayFixture> LoadReplayFixture(const std::string& source_dir);

}  // namespace warpwatch::e2e

#endif  // WARPWATCH_TESTS_E2E_REPLAY_FIXTURE_H_
