// RunResult JSON -> CasePoints.
#include "tests/server/detect/power/fixture_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

namespace warpwatch::server::detect::power {
namespace {

double Number(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return 0;
  if (it->is_number()) return it->get<double>();
  if (it->is_string()) return std::stod(it->get<std::string>());  // int64 as a JSON string
  return 0;
}

}  // namespace

StatusOr<FixtureRun> ReadRunFixture(const std::string& path, bool with_samples) {
  std::ifstream in(path);
  if (!in) return NotFoundError("cannot open " + path);
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("measurements") ||
      !doc["measurements"].is_array()) {
    return InvalidArgumentError(path + " is not a RunResult JSON document");
  }
  FixtureRun run;
  run.path = path;
  run.started_at = doc.value("started_at", "");
  if (doc.contains("environment") && doc["environment"].contains("device")) {
    run.device_uuid = doc["environment"]["device"].value("uuid", "");
  }
  for (const nlohmann::json& m : doc["measurements"]) {
    CasePoint c;
    c.case_key = m.contains("case") ? m["case"].value("canonical", "") : "";
    c.point.device_uuid = run.device_uuid;
    c.point.ok = m.value("status", "") == "POINT_STATUS_OK";
    c.point.verified = m.value("verified", false);
    c.point.median_seconds = m.contains("stats") ? Number(m["stats"], "median") : 0;
    c.point.sm_clock_mhz = Number(m, "median_sm_clock_mhz");
    c.point.throttled_fraction = Number(m, "throttled_fraction");
    if (with_samples && m.contains("samples_seconds")) {
      c.point.samples_seconds = m["samples_seconds"].get<std::vector<double>>();
    }
    run.cases.push_back(std::move(c));
  }
  return run;
}

namespace {

// `paths` sorted by their runs' started_at, then path.
std::vector<std::string> SortedByStart(const std::vector<std::string>& paths) {
  std::vector<std::pair<std::string, std::string>> keyed;  // (started_at, path)
  for (const std::string& p : paths) {
    auto run = ReadRunFixture(p, false);
    keyed.emplace_back(run.ok() ? run->started_at : "", p);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::string> out;
  for (auto& [started, p] : keyed) out.push_back(p);
  return out;
}

}  // namespace

std::vector<std::string> FindRepeatedRunFixtures(const std::string& fixtures_dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fixtures_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.rfind("h100_repeat", 0) == 0 &&
        entry.path().extension() == ".json") {
      paths.push_back(entry.path().string());
    }
  }
  for (const auto& entry : fs::directory_iterator(fs::path(fixtures_dir) / "h100_repeated", ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") {
      paths.push_back(entry.path().string());
    }
  }
  return SortedByStart(paths);
}

std::vector<std::string> FindRunFixturesIn(const std::string& folder) {
  namespace fs = std::filesystem;
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") {
      paths.push_back(entry.path().string());
    }
  }
  return SortedByStart(paths);
}

StatusOr<RepeatedRuns> LoadRepeatedRuns(const std::vector<std::string>& paths, bool with_samples) {
  RepeatedRuns repeated;
  repeated.paths = paths;
  std::map<std::string, std::vector<RunPoint>> by_case;
  for (size_t r = 0; r < paths.size(); ++r) {
    ASSIGN_OR_RETURN(FixtureRun run, ReadRunFixture(paths[r], with_samples));
    for (CasePoint& c : run.cases) {
      std::vector<RunPoint>& series = by_case[c.case_key];
      series.resize(paths.size());
      c.point.run_id = static_cast<int64_t>(r);
      series[r] = std::move(c.point);
    }
  }
  for (auto& [key, series] : by_case) {
    repeated.case_keys.push_back(key);
    repeated.runs.push_back(std::move(series));
  }
  return repeated;
}

}  // namespace warpwatch::server::detect::power
