// Reads a RunResult JSON (`warpwatch-worker run --out`, e.g. tests/fixtures/h100_nightly.json)
// into the detector's plain points, keyed by case. nlohmann-json: no protobuf in the harness.
#ifndef WARPWATCH_TESTS_SERVER_DETECT_POWER_FIXTURE_READER_H_
#define WARPWATCH_TESTS_SERVER_DETECT_POWER_FIXTURE_READER_H_

#include <string>
#include <vector>

#include "common/status/status.h"
#include "server/detect/compare_runs.h"

namespace warpwatch::server::detect::power {

struct FixtureRun {
  std::string path;
  std::string device_uuid;
  std::string started_at;        // as written; runs sort by it
  std::vector<CasePoint> cases;  // every measurement, in file order (skipped ones are not ok)
};

// Errors: NOT_FOUND when the file cannot be opened, INVALID_ARGUMENT when it is not a RunResult.
StatusOr<FixtureRun> ReadRunFixture(const std::string& path, bool with_samples);

// The repeated-run fixtures under `fixtures_dir`: files named h100_repeat*.json and every *.json
// in a folder h100_repeated/, sorted by started_at (then path). Empty when there are none.
std::vector<std::string> FindRepeatedRunFixtures(const std::string& fixtures_dir);

// Every *.json in `folder`, sorted by started_at (then path). Empty when there are none.
std::vector<std::string> FindRunFixturesIn(const std::string& folder);

// Repeated runs of one suite by case: runs[c][r] is case case_keys[c] in paths[r] (a default,
// not-ok RunPoint where run r lacks it). Cases sorted by key.
struct RepeatedRuns {
  std::vector<std::string> paths;
  std::vector<std::string> case_keys;
  std::vector<std::vector<RunPoint>> runs;
};
StatusOr<RepeatedRuns> LoadRepeatedRuns(const std::vector<std::string>& paths, bool with_samples);

}  // namespace warpwatch::server::detect::power

#endif  // WARPWATCH_TESTS_SERVER_DETECT_POWER_FIXTURE_READER_H_
