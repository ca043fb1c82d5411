// GPU (label `gpu`): memory.managed's variants verified against the CPU reference (twice each:
// Reset moves the data back to the host between Runs), and the lesson on the device: prefetching
// a managed buffer recovers most of a device buffer's speed, page faults do not.
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

// Median of 5 samples that each start from host-resident data (Reset, untimed), in ms.
double MedianColdMilliseconds(const catalog::Point& point) {
  cudaDeviceProp prop{};
  EXPECT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  StatusOr<std::unique_ptr<Case>> made = FindImplementation(point.family)->MakeCase(point, prop);
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
  for (int i = 0; s.ok() && i < 5; ++i) {
    s = c->Reset(stream);
    if (!s.ok()) break;
    EXPECT_EQ(cudaEventRecord(start, stream), cudaSuccess);
    s = c->Run(stream);
    EXPECT_EQ(cudaEventRecord(stop, stream), cudaSuccess);
    EXPECT_EQ(cudaEventSynchronize(stop), cudaSuccess);
    float ms = 0;
    EXPECT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    times.push_back(ms);
  }
  EXPECT_TRUE(s.ok()) << point.Canonical() << ": " << s.ToString();
  c.reset();
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  if (times.empty()) return 0;
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

TEST(ManagedGpu, EveryVariantMatchesTheReference) {
  WW_REQUIRE_CUDA_DEVICE();
  for (const char* variant : {"device", "managed", "managed_advise", "managed_prefetch"}) {
    RunTwiceAndVerify(MakePoint("memory.managed", variant, {{"n", 1000003}, {"block_size", 96}}));
    RunTwiceAndVerify(MakePoint("memory.managed", variant, {{"n", 1 << 22}, {"block_size", 256}}));
  }
}

TEST(ManagedGpu, PrefetchBeatsPageFaults) {
  WW_REQUIRE_CUDA_DEVICE();
  auto time = [](const char* variant) {
    return MedianColdMilliseconds(
        MakePoint("memory.managed", variant, {{"n", 1 << 22}, {"block_size", 256}}));
  };
  const double device = time("device");
  const double managed = time("managed");
  const double advise = time("managed_advise");
  const double prefetch = time("managed_prefetch");
  std::printf("n=2^22: device %.4f ms, managed %.4f, managed_advise %.4f, managed_prefetch %.4f\n",
              device, managed, advise, prefetch);
  ASSERT_GT(prefetch, 0);
  EXPECT_GT(managed / prefetch, 1.2);
}

}  // namespace
}  // namespace warpwatch::kernels
