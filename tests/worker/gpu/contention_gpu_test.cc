// GPU tests of the test-only contention generator (label gpu): it moves bytes at a plausible rate
// and stops promptly; at duty 0.5 it is busy about half the time; a memory-bound point the engine
// measures beside it is measurably slower, and its trace holds none of the generator's kernels;
// through the real `warpwatch-worker exec` child, the run's labels say it was slowed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "tests/worker/gpu/contention_gpu_support.h"
#include "tests/worker/gpu/gpu_test_support.h"
#include "worker/contention/contention_generator.h"
#include "worker/engine/point_engine.h"
#include "worker/executor/process_executor.h"

namespace warpwatch::worker {
namespace {

TEST(ContentionGpu, MovesBytesWithinTheDevicesBandwidthAndStopsPromptly) {
  SKIP_WITHOUT_CUDA_DEVICE();
  auto device = QueryDevice(0, nullptr);
  ASSERT_TRUE(device.ok()) << device.status().ToString();
  const double peak_gbps = device->device.theoretical_bandwidth_bytes_per_second() * 1e-9;
  auto g = ContentionGenerator::Start(0, ContentionTestConfig(1, 1));
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  // Calibrated to ~200 us: short enough for a prompt stop, long enough to amortise the launch.
  EXPECT_GT((*g)->launch_seconds(), 50e-6);
  EXPECT_LT((*g)->launch_seconds(), 1e-3);
  double stop_seconds = 0;
  ContentionReport r = RunContentionFor(**g, 1.0, &stop_seconds);
  EXPECT_GT(r.launches, 100);
  // A floor any GPU's DRAM passes, and no more than the device can move (a wrong byte count).
  EXPECT_GT(r.achieved_gbps(), 100);
  if (peak_gbps > 0) {
    EXPECT_LT(r.achieved_gbps(), 1.05 * peak_gbps) << "peak " << peak_gbps;
  }
  EXPECT_GT(r.busy_fraction(), 0.95);
  // At most max_in_flight (4) launches of ~200 us are queued when Stop is called.
  EXPECT_LT(stop_seconds, 0.1);
  ContentionReport again;
  EXPECT_TRUE((*g)->Stop(&again).ok());
  EXPECT_EQ(again.launches, r.launches);
  StatusOr<size_t> checked = (*g)->VerifyCopied();
  ASSERT_TRUE(checked.ok()) << checked.status().ToString();
  EXPECT_GE(*checked, r.chunk_bytes);
}

TEST(ContentionGpu, HalfDutyIsBusyAboutHalfTheTime) {
  SKIP_WITHOUT_CUDA_DEVICE();
  auto g = ContentionGenerator::Start(0, ContentionTestConfig(0.5, 0.5));
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  double stop_seconds = 0;
  ContentionReport r = RunContentionFor(**g, 1.0, &stop_seconds);
  EXPECT_GT(r.busy_fraction(), 0.35);
  EXPECT_LT(r.busy_fraction(), 0.65);
  EXPECT_GT(r.achieved_gbps(), 30);
  EXPECT_LT(stop_seconds, 0.1);
}

TEST(ContentionGpu, BuffersThatDoNotFitAreAnErrorAndLeaveNoErrorBehind) {
  SKIP_WITHOUT_CUDA_DEVICE();
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  ContentionConfig c = ContentionTestConfig(1, 1);
  c.buffer_bytes = prop.totalGlobalMem;  // two of them never fit
  auto g = ContentionGenerator::Start(0, c);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("cudaMalloc"), std::string::npos) << g.status().ToString();
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
}

// The point of the option: the same point, measured the same way, is slower beside the copy, and
// its kernels are its own. Whether the kernel itself slows or only starts later varies by GPU:
// its CUPTI time rose > 5 % on the H100s and on H200 GPU-ef3398d5, +1.2 % on H200 GPU-6319b369,
// and stayed flat on H200 GPU-5b3c4090 (30.6 us clean and beside, 3 of 3 readings, 2026-12-02:
// there the copy kernel delayed ours instead of sharing the SMs with it), so it is printed, not
// asserted. The copy-engine mode slowed the kernel itself on every one of them
// (contention_copy_engine_gpu_test.cc asserts it).
TEST(ContentionGpu, AMemoryBoundPointIsSlowerBesideItAndKeepsItsOwnKernels) {
  SKIP_WITHOUT_CUDA_DEVICE();
  auto engine = PointEngine::Open(0);
  ASSERT_TRUE(engine.ok()) << engine.status().ToString();
  ASSERT_TRUE((*engine)->IgnoreKernelInTraces(ContentionGenerator::Kernel()).ok());
  const EngineSettings settings = QuickContentionSettings();
  const v1::Measurement clean = (*engine)->Measure(kContentionCopyPoint, settings).measurement;
  ASSERT_EQ(clean.status(), v1::POINT_STATUS_OK) << clean.error();

  auto g = ContentionGenerator::Start(0, ContentionTestConfig(1, 1));
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  const v1::Measurement slowed = (*engine)->Measure(kContentionCopyPoint, settings).measurement;
  ContentionReport r;
  ASSERT_TRUE((*g)->Stop(&r).ok()) << r.error;
  ASSERT_EQ(slowed.status(), v1::POINT_STATUS_OK) << slowed.error();
  std::printf("copy 2^24: clean %.2f us (kernel %.2f), beside the copy %.2f us (kernel %.2f); %s\n",
              clean.stats().median() * 1e6, clean.kernel_median_seconds() * 1e6,
              slowed.stats().median() * 1e6, slowed.kernel_median_seconds() * 1e6,
              FormatContentionReport(r).c_str());
  EXPECT_GT(slowed.stats().median(), 1.10 * clean.stats().median());
  ASSERT_TRUE(slowed.duration_note().empty()) << slowed.duration_note();
  ASSERT_EQ(slowed.kernels_size(), clean.kernels_size()) << Explain(slowed).substr(0, 4000);
  for (const v1::KernelInfo& k : slowed.kernels()) {
    EXPECT_EQ(k.mangled().find("ContentionCopyKernel"), std::string::npos) << k.mangled();
  }
}

// What `run --test-contention-gib` and `serve --test-contention-gib` rely on: the child runs the
// generator and the run's labels record it beside the job's own.
TEST(ContentionGpu, ARunThroughTheChildCarriesTheContentionLabels) {
  SKIP_WITHOUT_CUDA_DEVICE();
  ProcessExecutorOptions options;
  options.child_argv = {WARPWATCH_WORKER_PATH, "exec", "--test-contention-gib=0.5",
                        "--test-contention-duty=1"};
  ProcessExecutor executor(options);
  ExecutionRequest request;
  request.points = {kContentionCopyPoint};
  request.settings.set_min_gpu_time_seconds(0.1);
  request.labels["git_sha"] = "abc123";
  auto result = executor.Execute(request, ExecutionCallbacks());
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->measurements.size(), 1u);
  const v1::Measurement& m = result->measurements[0];
  EXPECT_EQ(m.status(), v1::POINT_STATUS_OK) << Explain(m);
  const auto& labels = result->environment.labels();
  for (const auto& [k, v] : labels) std::printf("label %s=%s\n", k.c_str(), v.c_str());
  EXPECT_EQ(labels.count("git_sha") ? labels.at("git_sha") : "", "abc123");
  EXPECT_EQ(labels.count("test_contention_gib") ? labels.at("test_contention_gib") : "", "0.5");
  EXPECT_EQ(labels.count("test_contention_duty") ? labels.at("test_contention_duty") : "", "1");
  ASSERT_EQ(labels.count("test_contention_achieved_gbps"), 1u);
  EXPECT_GT(std::atof(labels.at("test_contention_achieved_gbps").c_str()), 100);
  EXPECT_EQ(labels.count("test_contention_error"), 0u);
  for (const v1::KernelInfo& k : m.kernels()) {
    EXPECT_EQ(k.mangled().find("ContentionCopyKernel"), std::string::npos) << k.mangled();
  }
}

}  // namespace
}  // namespace warpwatch::worker
