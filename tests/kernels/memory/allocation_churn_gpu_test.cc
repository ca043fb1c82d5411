// GPU (label `gpu`): memory.allocation_churn's variants verified against the CPU reference (run
// twice each, so a pool or allocation reused across Runs is exercised), and the lesson on the
// device: allocating in the hot loop costs more than the small work it serves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common/catalog/catalog.h"
#include "kernels/core/family.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::MakePoint;

// Runs `point` as the engine does (MakeCase, Setup, then Reset, Run, sync, Verify twice).
void RunTwiceAndVerify(const catalog::Point& point) {
  const std::string key = point.Canonical();
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  const Family* family = FindImplementation(point.family);
  ASSERT_NE(family, nullptr) << point.family;
  StatusOr<std::unique_ptr<Case>> made = family->MakeCase(point, prop);
  ASSERT_TRUE(made.ok()) << key << ": MakeCase: " << made.status().ToString();
  std::unique_ptr<Case> c = std::move(made).value();
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  Status s = c->Setup(stream);
  ASSERT_TRUE(s.ok()) << key << ": Setup: " << s.ToString();
  EXPECT_NE(c->Shape().function, nullptr) << key;
  EXPECT_GT(c->work().bytes, 0) << key;
  for (int round = 1; round <= 2; ++round) {
    s = c->Reset(stream);
    ASSERT_TRUE(s.ok()) << key << ": Reset: " << s.ToString();
    s = c->Run(stream);
    ASSERT_TRUE(s.ok()) << key << ": Run: " << s.ToString();
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess) << key;
    const VerifyResult v = c->Verify(stream);
    EXPECT_TRUE(v.status.ok()) << key << " (round " << round << "): " << v.status.ToString();
    EXPECT_EQ(v.max_error, 0) << key;
  }
  c.reset();
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess) << key;
}

// Median of 7 timed Runs of `point` after one verified Run, in milliseconds (hot L2: the lesson
// tests compare variants of one family, all at the same size).
double MedianMilliseconds(const catalog::Point& point) {
  cudaDeviceProp prop{};
  EXPECT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  const Family* family = FindImplementation(point.family);
  StatusOr<std::unique_ptr<Case>> made = family->MakeCase(point, prop);
  EXPECT_TRUE(made.ok()) << made.status().ToString();
  if (!made.ok()) return 0;
  std::unique_ptr<Case> c = std::move(made).value();
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  EXPECT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  EXPECT_EQ(cudaEventCreate(&start), cudaSuccess);
  EXPECT_EQ(cudaEventCreate(&stop), cudaSuccess);
  std::vector<double> times;
  Status s = c->Setup(stream);
  if (s.ok()) s = c->Run(stream);
  if (s.ok()) s = c->Verify(stream).status;
  EXPECT_TRUE(s.ok()) << point.Canonical() << ": " << s.ToString();
  for (int i = 0; s.ok() && i < 7; ++i) {
    EXPECT_EQ(cudaEventRecord(start, stream), cudaSuccess);
    s = c->Run(stream);
    EXPECT_EQ(cudaEventRecord(stop, stream), cudaSuccess);
    EXPECT_EQ(cudaEventSynchronize(stop), cudaSuccess);
    float ms = 0;
    EXPECT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    times.push_back(ms);
  }
  c.reset();
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  if (times.empty()) return 0;
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

TEST(AllocationChurnGpu, EveryVariantMatchesTheReference) {
  WW_REQUIRE_CUDA_DEVICE();
  for (const char* variant : {"malloc_free", "malloc_async_pool", "preallocated"}) {
    RunTwiceAndVerify(
        MakePoint("memory.allocation_churn", variant, {{"n", 1}, {"block_size", 32}}));
    RunTwiceAndVerify(
        MakePoint("memory.allocation_churn", variant, {{"n", 1000003}, {"block_size", 96}}));
    RunTwiceAndVerify(
        MakePoint("memory.allocation_churn", variant, {{"n", 1 << 22}, {"block_size", 256}}));
  }
}

TEST(AllocationChurnGpu, CudaMallocInTheLoopDominatesSmallWork) {
  WW_REQUIRE_CUDA_DEVICE();
  auto time = [](const char* variant) {
    return MedianMilliseconds(
        MakePoint("memory.allocation_churn", variant, {{"n", 1 << 16}, {"block_size", 256}}));
  };
  const double churn = time("malloc_free");
  const double pool = time("malloc_async_pool");
  const double pre = time("preallocated");
  std::printf("n=65536: malloc_free %.4f ms, malloc_async_pool %.4f, preallocated %.4f\n", churn,
              pool, pre);
  ASSERT_GT(pre, 0);
  EXPECT_GT(churn / pre, 1.5);
}

}  // namespace
}  // namespace warpwatch::kernels
