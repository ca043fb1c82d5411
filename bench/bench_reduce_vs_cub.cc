// bench_reduce_vs_cub: the best of the recommended reduce variants (over block sizes) against
// cub::DeviceReduce::Sum at 2^24 and 2^28 ints, measured in the same run. Both leave the whole
// sum in device memory; the ratio is over the 4n input bytes (= CUB's time / the variant's).
// Issue 3's target: >= 0.95.
#include <CLI/CLI.hpp>
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
  int runs = 50;
  std::vector<int64_t> sizes = {int64_t{1} << 24, int64_t{1} << 28};
  std::vector<int64_t> blocks = {128, 256, 512, 1024};
  app.add_option("--json", json_path, "also write the ratios as JSON to this file");
  app.add_option("--runs", runs, "timed runs per case (median)")->check(CLI::Range(1, 100000));
  app.add_option("--n", sizes, "problem sizes in ints");
  app.add_option("--block-sizes", blocks, "block sizes tried for each variant");
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
  const catalog::FamilyInfo* info = catalog::FindFamily("reduce");
  if (info == nullptr) {
    std::fprintf(stderr, "reduce is not in the catalog\n");
    return 1;
  }

  std::vector<Ratio> ratios;
  int failures = 0;
  for (int64_t n : sizes) {
    StatusOr<CaseTiming> cub = TimeCase(Point("cub", {{"n", n}}), prop, runs, stream, flusher.get());
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
            TimeCase(Point(v.name, {{"n", n}, {"block_size", block}}), prop, runs, stream,
                     flusher.get());
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
