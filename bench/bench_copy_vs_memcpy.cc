// bench_copy_vs_memcpy: the recommended bandwidth-bound variants (coalesced copy, 16-byte words,
// SoA, padded transpose) against cudaMemcpyAsync device-to-device of the same bytes, measured in
// the same run. Issue 3's target: every ratio >= 0.90.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/detail/case_timer.h"
#include "bench/detail/ratio_report.h"
#include "common/catalog/catalog.h"
#include "kernels/core/cuda_check.h"

namespace warpwatch::bench {
namespace {

constexpr double kTarget = 0.90;

catalog::Point Point(const std::string& family, const std::string& variant,
                     std::map<std::string, int64_t> params) {
  catalog::Point p;
  p.family = family;
  p.variant = variant;
  p.params = std::move(params);
  return p;
}

int Main(int argc, char** argv) {
  CLI::App app{"Best bandwidth-bound variants / cudaMemcpy device-to-device bandwidth"};
  std::string json_path;
  int max_samples = 0;
  int64_t n = int64_t{1} << 26;
  app.add_option("--json", json_path, "also write the ratios as JSON to this file");
  app.add_option("--max-samples", max_samples,
                 "at most this many samples per case (default: the nightly stopping rule's)")
      ->check(CLI::Range(0, 1000000));
  app.add_option("--n", n, "floats per buffer (the transpose uses side = sqrt(n))")
      ->check(CLI::Range(int64_t{1024}, int64_t{1} << 28));
  CLI11_PARSE(app, argc, argv);
  if (!CudaDeviceOrSkip()) return 0;

  cudaDeviceProp prop{};
  std::unique_ptr<worker::PointEngine> engine;
  Status s = [&]() -> Status {
    CUDA_RETURN_IF_ERROR(cudaGetDeviceProperties(&prop, 0));
    ASSIGN_OR_RETURN(engine, worker::PointEngine::Open(0));
    return OkStatus();
  }();
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  const worker::EngineSettings settings = BenchSettings(max_samples);
  std::printf(
      "device: %s; each case timed by the engine (warpwatch-worker's sampling loop, nightly\n"
      "settings: verified first, blocking kernel, clean L2 flush, stopping rule, median%s)\n",
      prop.name, max_samples > 0 ? ", --max-samples" : "");

  const int64_t side = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
  // Each family's recommended variants at these launch configurations; the best one counts.
  const std::vector<std::pair<std::string, std::vector<std::map<std::string, int64_t>>>> families =
      {
          {"memory.coalescing", {{{"n", n}, {"block_size", 256}}}},
          {"memory.vector_width", {{{"n", n}, {"block_size", 256}}}},
          {"memory.aos_soa",
           {{{"n", std::min<int64_t>(n, int64_t{1} << 26)}, {"block_size", 256}}}},
          {"shared.transpose",
           {{{"side", side}, {"block_rows", 4}}, {{"side", side}, {"block_rows", 8}}}},
      };
  StatusOr<CaseTiming> memcpy_timing =
      TimeCase(*engine, Point("memory.coalescing", "memcpy", {{"n", n}}), settings);
  if (!memcpy_timing.ok()) {
    std::fprintf(stderr, "reference: %s\n", memcpy_timing.status().ToString().c_str());
    return 1;
  }
  std::vector<Ratio> ratios;
  int failures = 0;
  for (const auto& [family, configs] : families) {
    const catalog::FamilyInfo* info = catalog::FindFamily(family);
    if (info == nullptr) continue;
    for (const catalog::VariantInfo& v : info->variants) {
      if (!v.recommended) continue;
      bool have_best = false;
      CaseTiming best;
      for (const auto& params : configs) {
        StatusOr<CaseTiming> t = TimeCase(*engine, Point(family, v.name, params), settings);
        if (!t.ok()) {
          std::fprintf(stderr, "%s/%s: %s\n", family.c_str(), v.name.c_str(),
                       t.status().ToString().c_str());
          ++failures;
          continue;
        }
        if (configs.size() > 1) {
          std::printf("  %-60s %9.1f GB/s\n", t->key.c_str(), t->GigabytesPerSecond());
        }
        if (!have_best || t->GigabytesPerSecond() > best.GigabytesPerSecond()) best = *t;
        have_best = true;
      }
      if (!have_best) continue;
      Ratio r;
      r.name = family + "/" + v.name + " / memcpy D2D";
      r.measured = best;
      r.reference = *memcpy_timing;
      r.ratio = best.GigabytesPerSecond() / memcpy_timing->GigabytesPerSecond();
      r.target = kTarget;
      PrintRatio(r);
      ratios.push_back(r);
    }
  }
  if (!json_path.empty()) {
    s = WriteRatiosJson(json_path, "bench_copy_vs_memcpy", prop, ratios);
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.ToString().c_str());
      return 1;
    }
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace warpwatch::bench

int main(int argc, char** argv) { return warpwatch::bench::Main(argc, argv); }
