// Ratio lines and their JSON.
#include "bench/detail/ratio_report.h"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

namespace warpwatch::bench {
namespace {

nlohmann::json TimingJson(const CaseTiming& t) {
  return {{"case", t.key},
          {"kernel", t.kernel_name},
          {"samples", t.runs},
          {"rel_stderr", t.rel_stderr},
          {"stop_reason", t.stop_reason},
          {"median_seconds", t.median_seconds},
          {"bytes", t.bytes},
          {"gb_per_s", t.GigabytesPerSecond()}};
}

}  // namespace

void PrintRatio(const Ratio& r) {
  std::printf(
      "%s: ratio %.3f (target %.2f, %s)\n  %-60s %9.1f GB/s  %10.3f us\n  %-60s %9.1f GB/s  %10.3f "
      "us\n",
      r.name.c_str(), r.ratio, r.target, r.met() ? "met" : "MISSED", r.measured.key.c_str(),
      r.measured.GigabytesPerSecond(), r.measured.median_seconds * 1e6, r.reference.key.c_str(),
      r.reference.GigabytesPerSecond(), r.reference.median_seconds * 1e6);
  std::fflush(stdout);
}

Status WriteRatiosJson(const std::string& path, const std::string& bench,
                       const cudaDeviceProp& prop, const std::vector<Ratio>& ratios) {
  nlohmann::json out;
  out["bench"] = bench;
  out["device"] = {
      {"name", prop.name},
      {"sm_count", prop.multiProcessorCount},
      {"l2_bytes", prop.l2CacheSize},
      {"compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor)}};
  nlohmann::json list = nlohmann::json::array();
  for (const Ratio& r : ratios) {
    list.push_back({{"name", r.name},
                    {"ratio", r.ratio},
                    {"target", r.target},
                    {"met", r.met()},
                    {"measured", TimingJson(r.measured)},
                    {"reference", TimingJson(r.reference)}});
  }
  out["ratios"] = list;
  std::ofstream file(path);
  if (!file) return UnavailableError("cannot write " + path);
  file << out.dump(2) << "\n";
  if (!file) return UnavailableError("error writing " + path);
  return OkStatus();
}

bool CudaDeviceOrSkip() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    std::printf("skipped: no CUDA device\n");
    return false;
  }
  return true;
}

}  // namespace warpwatch::bench
