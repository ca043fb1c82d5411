// File: bench/detail/nightly_suite.cc
#include "bench/detail/nightly_suite.h"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

namespace warpwatch::bench {
namespace {

StatusOr<nlohmann::json> ReadJson(const std::string& path) {
  std::ifstream in(path);
  if (!in) return NotFoundError("cannot read " + path);
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return InvalidArgumentError(path + " is not JSON");
  return doc;
}

// Params are int64 in the proto, so the JSON mapping writes them as strings.
int64_t ParamValue(const nlohmann::json& v) {
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_string()) return std::strtoll(v.get<std::string>().c_str(), nullptr, 10);
  return 0;
}

}  // namespace

StatusOr<std::vector<SuiteCase>> SuiteFromRunFile(const std::string& path) {
  ASSIGN_OR_RETURN(nlohmann::json run, ReadJson(path));
  std::vector<SuiteCase> cases;
  if (run.contains("measurements") && run["measurements"].is_array()) {
    for (const nlohmann::json& m : run["measurements"]) {
      if (!m.contains("case") || !m["case"].is_object()) continue;
      const nlohmann::json& key = m["case"];
      SuiteCase c;
      c.canonical = key.value("canonical", "");
      c.family = key.value("family", "");
      c.variant = key.value("variant", "");
      if (key.contains("params") && key["params"].is_object()) {
        for (auto it = key["params"].begin(); it != key["params"].end(); ++it) {
          c.params[it.key()] = ParamValue(it.value());
        }
      }
      if (m.contains("stats") && m["stats"].is_object()) {
        c.median_seconds = m["stats"].value("median", 0.0);
      }
      if (!c.canonical.empty() && c.median_seconds > 0) cases.push_back(std::move(c));
    }
  }
  if (cases.empty()) return InvalidArgumentError(path + " holds no measurement with a median");
  return cases;
}

StatusOr<std::string> SpecJsonFromRunFile(const std::string& path) {
  ASSIGN_OR_RETURN(nlohmann::json run, ReadJson(path));
  return run.contains("spec") ? run["spec"].dump() : std::string("{}");
}

}  // namespace warpwatch::bench
