// bench_reduce_vs_cub: the best of the recommended reduce variants (over block sizes) against
// cub::DeviceReduce::Sum at 2^24 and 2^28 ints, measured in the same run. Both leave the whole
// sum in device memory; the ratio is over the 4n input bytes (= CUB's time / the variant's).
// Issue 3's target: >= 0.95.
#include <CLI/CLI.hpp>
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

constexpr double kTarget = 0.95;

catalog::Point Point(const std::string& variant, std::map<std::string, int64_t> params) {
  catalog::Point p;
  p.family = "reduce";
  p.variant = variant;
  p.params = std::move(params);
  return p;
}

// Bandwidth over the input alone, so partial-sum traffic does not flatter either side.
double InputGigabytesPerSecond(const CaseTiming& t, int64_t n) {
  return 4.0 * static_cast<double>(n) / t.median_seconds / 1e9;
}

int Main(int argc, char** argv) {
  CLI::App app{"Best reduction / cub::DeviceReduce::Sum bandwidth at 2^24 and 2^28 ints"};
  std::string json_path;
  int max_samples = 0;
  std::vector<int64_t> sizes = {int64_t{1} << 24, int64_t{1} << 28};
  std::vector<int64_t> blocks = {128, 256, 512, 1024};
  app.add_option("--json", json_path, "also write the ratios as JSON to this file");
  app.add_option("--max-samples", max_samples,
                 "at most this many samples per case (default: the nightly stopping rule's)")
      ->check(CLI::Range(0, 1000000));
  app.add_option("--n", sizes, "problem sizes in ints");
  app.add_option("--block-sizes", blocks, "block sizes tried for each variant");
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
  const catalog::FamilyInfo* info = catalog::FindFamily("reduce");
  if (info == nullptr) {
    std::fprintf(stderr, "reduce is not in the catalog\n");
    return 1;
  }

  std::vector<Ratio> ratios;
  int failures = 0;
  for (int64_t n : sizes) {
    StatusOr<CaseTiming> cub = TimeCase(*engine, Point("cub", {{"n", n}}), settings);
    if (!cub.ok()) {
      std::fprintf(stderr, "reference: %s\n", cub.status().ToString().c_str());
      return 1;
    }
    bool have_best = false;
    CaseTiming best;
    for (const catalog::VariantInfo& v : info->variants) {
      if (!v.recommended) continue;
      for (int64_t block : blocks) {
        StatusOr<CaseTiming> t =
            TimeCase(*engine, Point(v.name, {{"n", n}, {"block_size", block}}), settings);
        if (!t.ok()) {
          std::fprintf(stderr, "%s\n", t.status().ToString().c_str());
          ++failures;
          continue;
        }
        std::printf("  %-50s %9.1f GB/s (input bytes)\n", t->key.c_str(),
                    InputGigabytesPerSecond(*t, n));
        if (!have_best || t->median_seconds < best.median_seconds) best = *t;
        have_best = true;
      }
    }
    if (!have_best) continue;
    Ratio r;
    r.name = "best reduce / cub::DeviceReduce::Sum at n=" + std::to_string(n);
    r.measured = best;
    r.reference = *cub;
    r.ratio = InputGigabytesPerSecond(best, n) / InputGigabytesPerSecond(*cub, n);
    r.target = kTarget;
    PrintRatio(r);
    ratios.push_back(r);
  }
  if (!json_path.empty()) {
    s = WriteRatiosJson(json_path, "bench_reduce_vs_cub", prop, ratios);
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
