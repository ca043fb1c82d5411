// bench_copy_vs_memcpy: the recommended bandwidth-bound variants (coalesced copy, 16-byte words,
// SoA, padded transpose) against cudaMemcpyAsync device-to-device of the same bytes, measured in
// the same run. Issue 3's target: every ratio >= 0.90.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <memory>
#include <map>
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
  int runs = 50;
  int64_t n = int64_t{1} << 26;
  app.add_option("--json", json_path, "also write the ratios as JSON to this file");
  app.add_option("--runs", runs, "timed runs per case (median)")->check(CLI::Range(1, 100000));
  app.add_option("--n", n, "floats per buffer (the transpose uses side = sqrt(n))")
      ->check(CLI::Range(int64_t{1024}, int64_t{1} << 28));
  CLI11_PARSE(app, argc, argv);
  if (!CudaDeviceOrSkip()) return 0;

  cudaDeviceProp prop{};
  cudaStream_t stream = nullptr;
  std::unique_ptr<worker::L2Flusher> flusher;
  Status s = [&]() -> Status {
    CUDA_RETURN_IF_ERROR(cudaGetDeviceProperties(&prop, 0));
    CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    ASSIGN_OR_RETURN(flusher, worker::L2Flusher::Create(prop.l2CacheSize));
    return OkStatus();
  }();
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  std::printf("device: %s, %d runs per case, median, L2 flushed clean (read pass over 2x L2) before each run\n", prop.name,
              runs);

  const int64_t side = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
  // Each family's recommended variants at these launch configurations; the best one counts.
  const std::vector<std::pair<std::string, std::vector<std::map<std::string, int64_t>>>>
      families = {
          {"memory.coalescing", {{{"n", n}, {"block_size", 256}}}},
          {"memory.vector_width", {{{"n", n}, {"block_size", 256}}}},
          {"memory.aos_soa",
           {{{"n", std::min<int64_t>(n, int64_t{1} << 26)}, {"block_size", 256}}}},
          {"shared.transpose",
           {{{"side", side}, {"block_rows", 4}}, {{"side", side}, {"block_rows", 8}}}},
      };
  StatusOr<CaseTiming> memcpy_timing =
      TimeCase(Point("memory.coalescing", "memcpy", {{"n", n}}), prop, runs, stream, flusher.get());
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
        StatusOr<CaseTiming> t =
            TimeCase(Point(family, v.name, params), prop, runs, stream, flusher.get());
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
