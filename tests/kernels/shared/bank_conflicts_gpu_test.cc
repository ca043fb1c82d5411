// GPU (label `gpu`): shared.bank_conflicts' variants verified against the CPU reference at every
// stride, and the lesson's shape on the device: an n-way conflict costs about n times as much,
// odd strides and the broadcast cost nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/catalog/catalog.h"
#include "kernels/core/family.h"
#include "kernels/shared/bank_conflicts/bank_conflicts_kernels.h"
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

TEST(BankConflictsGpu, EveryVariantAndStrideMatchesTheReference) {
  WW_REQUIRE_CUDA_DEVICE();
  const int64_t small = kBankReadsPerThread * 64;
  const int64_t odd = kBankReadsPerThread * 1000;  // 1000 threads: a partial last block of 96
  for (const char* variant : {"conflict_free", "broadcast"}) {
    RunTwiceAndVerify(
        MakePoint("shared.bank_conflicts", variant, {{"n", small}, {"block_size", 32}}));
    RunTwiceAndVerify(
        MakePoint("shared.bank_conflicts", variant, {{"n", odd}, {"block_size", 96}}));
  }
  for (int64_t stride = 1; stride <= kBankMaxStride; ++stride) {
    RunTwiceAndVerify(MakePoint("shared.bank_conflicts", "strided",
                                {{"n", odd}, {"block_size", 96}, {"stride", stride}}));
  }
  RunTwiceAndVerify(MakePoint("shared.bank_conflicts", "strided",
                              {{"n", int64_t{1} << 28}, {"block_size", 256}, {"stride", 32}}));
}

TEST(BankConflictsGpu, ConflictsCostTheirDegreeAndBroadcastsAndOddStridesNothing) {
  WW_REQUIRE_CUDA_DEVICE();
  const int64_t n = int64_t{1} << 28;  // ~40 us conflict free: launch overhead small
  auto time = [n](const char* variant, int64_t stride) {
    std::map<std::string, int64_t> values = {{"n", n}, {"block_size", 256}, {"stride", stride}};
    return MedianMilliseconds(MakePoint("shared.bank_conflicts", variant, values));
  };
  const double free = time("conflict_free", 1);
  const double two = time("strided", 2);
  const double three = time("strided", 3);
  const double thirty_two = time("strided", 32);
  const double broadcast = time("broadcast", 1);
  std::printf(
      "conflict_free %.4f ms, stride 2 %.4f, stride 3 %.4f, stride 32 %.4f, broadcast %.4f\n", free,
      two, three, thirty_two, broadcast);
  ASSERT_GT(free, 0);
  EXPECT_GT(two / free, 1.6);
  EXPECT_LT(three / free, 1.3);
  EXPECT_GT(thirty_two / free, 12.0);
  EXPECT_LT(broadcast / free, 1.3);
}

}  // namespace
}  // namespace warpwatch::kernels
