// GPU (label `gpu`): memory.alignment's variants verified against the CPU reference at small, odd
// and large sizes and at every kind of offset (inside a sector, on a sector, on a 128-byte line).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
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

TEST(AlignmentGpu, EveryVariantMatchesTheReference) {
  WW_REQUIRE_CUDA_DEVICE();
  RunTwiceAndVerify(MakePoint("memory.alignment", "aligned", {{"n", 4096}, {"block_size", 256}}));
  RunTwiceAndVerify(MakePoint("memory.alignment", "aligned", {{"n", 1000003}, {"block_size", 96}}));
  RunTwiceAndVerify(
      MakePoint("memory.alignment", "aligned", {{"n", 1 << 24}, {"block_size", 256}}));
  for (int64_t offset : {1, 3, 4, 8, 16, 31, 32}) {
    RunTwiceAndVerify(MakePoint("memory.alignment", "misaligned",
                                {{"n", 1000003}, {"block_size", 96}, {"offset", offset}}));
  }
  RunTwiceAndVerify(MakePoint("memory.alignment", "misaligned",
                              {{"n", 1 << 24}, {"block_size", 256}, {"offset", 1}}));
}

}  // namespace
}  // namespace warpwatch::kernels
