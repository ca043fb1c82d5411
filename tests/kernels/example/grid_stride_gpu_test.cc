// GPU (label `gpu`): example.grid_stride's variants verified against the CPU reference at small,
// odd and nightly sizes, then timed for a few runs as the engine would time them.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "common/catalog/catalog.h"
#include "kernels/core/family.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::MakePoint;

// Runs `point` as the engine does (MakeCase, Setup, then Reset, Run, sync, Verify twice), then
// times ten more runs between two events and prints their mean bandwidth (a smoke figure only).
void VerifyAndRun(const catalog::Point& point) {
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
  for (int round = 1; round <= 2; ++round) {
    ASSERT_TRUE(c->Reset(stream).ok()) << key;
    s = c->Run(stream);
    ASSERT_TRUE(s.ok()) << key << ": Run: " << s.ToString();
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess) << key;
    const VerifyResult v = c->Verify(stream);
    EXPECT_TRUE(v.status.ok()) << key << " (round " << round << "): " << v.status.ToString();
    EXPECT_EQ(v.max_error, 0) << key;
  }
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  ASSERT_EQ(cudaEventCreate(&start), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&stop), cudaSuccess);
  constexpr int kRuns = 10;
  ASSERT_EQ(cudaEventRecord(start, stream), cudaSuccess);
  for (int i = 0; i < kRuns; ++i) ASSERT_TRUE(c->Run(stream).ok()) << key;
  ASSERT_EQ(cudaEventRecord(stop, stream), cudaSuccess);
  ASSERT_EQ(cudaEventSynchronize(stop), cudaSuccess);
  float ms = 0;
  ASSERT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
  EXPECT_GT(ms, 0.0f) << key;
  std::printf("%s: %.1f GB/s over %d runs (grid %u x %u)\n", key.c_str(),
              c->work().bytes * kRuns / (ms * 1e-3) / 1e9, kRuns, c->Shape().grid.x,
              c->Shape().block.x);
  EXPECT_EQ(cudaEventDestroy(start), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(stop), cudaSuccess);
  c.reset();
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess) << key;
}

TEST(GridStrideGpu, EveryVariantMatchesTheReferenceAndRuns) {
  WW_REQUIRE_CUDA_DEVICE();
  for (const char* variant : {"one_per_thread", "grid_stride"}) {
    VerifyAndRun(MakePoint("example.grid_stride", variant, {{"n", 4096}, {"block_size", 256}}));
    VerifyAndRun(MakePoint("example.grid_stride", variant, {{"n", 1000003}, {"block_size", 96}}));
    VerifyAndRun(MakePoint("example.grid_stride", variant));  // the catalog's default point
  }
}

}  // namespace
}  // namespace warpwatch::kernels
