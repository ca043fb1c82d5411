// File: common/report/bench_targets.cc
#include "common/report/bench_targets.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "common/report/format.h"

namespace warpwatch::report {
namespace {

using nlohmann::json;

StatusOr<BenchSide> ParseSide(const json& side, const std::string& where) {
  if (!side.is_object()) return InvalidArgumentError(where + ": missing");
  BenchSide out;
  out.case_key = side.value("case", "");
  out.gb_per_s = side.value("gb_per_s", 0.0);
  out.median_seconds = side.value("median_seconds", 0.0);
  if (out.case_key.empty()) return InvalidArgumentError(where + ".case: missing");
  return out;
}

}  // namespace

StatusOr<std::vector<BenchRatio>> ParseBenchJson(const std::string& json_text) {
  json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return InvalidArgumentError("not a JSON object");
  if (!doc.contains("ratios") || !doc["ratios"].is_array()) {
    return InvalidArgumentError("ratios: missing or not an array");
  }
  std::string bench = doc.value("bench", "");
  std::string device;
  if (doc.contains("device") && doc["device"].is_object()) device = doc["device"].value("name", "");
  std::vector<BenchRatio> out;
  for (size_t i = 0; i < doc["ratios"].size(); ++i) {
    const json& r = doc["ratios"][i];
    std::string where = "ratios[" + std::to_string(i) + "]";
    if (!r.is_object() || !r.contains("ratio") || !r["ratio"].is_number()) {
      return InvalidArgumentError(where + ".ratio: missing");
    }
    BenchRatio ratio;
    ratio.bench = bench;
    ratio.device = device;
    ratio.name = r.value("name", "");
    ratio.ratio = r["ratio"].get<double>();
    ratio.target = r.value("target", 0.0);
    ratio.met = r.value("met", false);
    ASSIGN_OR_RETURN(ratio.measured, ParseSide(r.value("measured", json()), where + ".measured"));
    ASSIGN_OR_RETURN(ratio.reference, ParseSide(r.value("reference", json()), where + ".reference"));
    out.push_back(std::move(ratio));
  }
  return out;
}

std::string RenderTargets(const std::vector<BenchRatio>& ratios) {
  if (ratios.empty()) return "";
  std::ostringstream out;
  out << "## Performance targets\n\nEach ratio is measured against its reference in the same run "
         "of the named bench program (median of its runs, L2 flushed before each).\n\n"
         "| target | measured | GB/s | reference | GB/s | ratio | goal | met |\n"
         "|---|---|---|---|---|---|---|---|\n";
  for (const BenchRatio& r : ratios) {
    out << "| " << r.name << " (" << r.bench << ") | `" << r.measured.case_key << "` | "
        << FormatFixed(r.measured.gb_per_s, 1, true) << " | `" << r.reference.case_key << "` | "
        << FormatFixed(r.reference.gb_per_s, 1, true) << " | " << FormatFixed(r.ratio, 3) << " | "
        << "≥ " << FormatFixed(r.target, 2) << " | " << (r.met ? "yes" : "**no**") << " |\n";
  }
  out << "\n";
  return out.str();
}

}  // namespace warpwatch::report
