// GPU (labels gpu, multigpu): the node-scoped interconnect families through the registry as the
// engine drives them. On a one-GPU host every family answers "not applicable" (SKIPPED, not a
// failure); on two or more GPUs every variant of every ordered pair (peer_copy, peer_read) and
// every collective (nccl, when libnccl.so.2 loads) verifies, and a run whose output was cleared
// fails verification (the check is not vacuous).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "common/catalog/catalog.h"
#include "kernels/core/family.h"
#include "kernels/interconnect/interconnect_plan.h"
#include "kernels/interconnect/nccl_library.h"
#include "tests/kernels/instr/run_point.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

int DeviceCount() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

bool NcclLoads() { return LoadNccl().ok(); }

// The point's outcome on this host: verified on 2+ GPUs, "not applicable" on one.
void ExpectVerifiedOrNotApplicable(const catalog::Point& point, bool applicable) {
  const testing::PointOutcome out = testing::RunPoint(point);
  if (applicable) {
    EXPECT_TRUE(out.ran) << point.Canonical() << ": " << out.reason;
    EXPECT_TRUE(out.verify.status.ok()) << point.Canonical() << ": "
                                        << out.verify.status.ToString();
  } else {
    EXPECT_TRUE(out.skipped) << point.Canonical();
    EXPECT_NE(out.reason.find(kNotApplicable), std::string::npos)
        << point.Canonical() << ": " << out.reason;
  }
}

TEST(InterconnectMultiGpu, PeerCopyVerifiesEveryOrderedPairOrIsNotApplicable) {
  WW_REQUIRE_CUDA_DEVICE();
  const int n = DeviceCount();
  const bool applicable = n >= 2;
  const auto pairs = applicable ? OrderedPairs(n) : std::vector<std::pair<int, int>>{{0, 1}};
  for (const auto& [src, dst] : pairs) {
    for (const char* variant : {"peer_access", "staged_host"}) {
      for (int64_t bytes : {int64_t{4}, int64_t{(1 << 22) + 12}}) {
        ExpectVerifiedOrNotApplicable(
            testing::MakePoint("interconnect.peer_copy", variant,
                               {{"src", src}, {"dst", dst}, {"bytes", bytes}}),
            applicable);
      }
    }
  }
}

TEST(InterconnectMultiGpu, PeerReadVerifiesLocalAndEveryPeerOrIsNotApplicable) {
  WW_REQUIRE_CUDA_DEVICE();
  const int n = DeviceCount();
  const bool applicable = n >= 2;
  const auto pairs = applicable ? OrderedPairs(n) : std::vector<std::pair<int, int>>{{0, 1}};
  for (const auto& [src, dst] : pairs) {
    ExpectVerifiedOrNotApplicable(
        testing::MakePoint("interconnect.peer_read", "peer",
                           {{"src", src}, {"dst", dst}, {"bytes", (1 << 24) + 4096}}),
        applicable);
  }
  ExpectVerifiedOrNotApplicable(
      testing::MakePoint("interconnect.peer_read", "local", {{"dst", applicable ? n - 1 : 0},
                                                             {"bytes", 1 << 24}}),
      applicable);
}

TEST(InterconnectMultiGpu, NcclCollectivesVerifyAtEverySizeClassOrAreNotApplicable) {
  WW_REQUIRE_CUDA_DEVICE();
  const int n = DeviceCount();
  if (n >= 2 && !NcclLoads()) {
    std::printf("skipped: libnccl.so.2 not loadable on this multi-GPU host\n");
    GTEST_SKIP() << LoadNccl().status().ToString();
  }
  for (const char* variant : {"all_reduce", "all_gather", "reduce_scatter"}) {
    for (int64_t bytes : {int64_t{8}, int64_t{4096}, int64_t{1} << 20, int64_t{1} << 26}) {
      ExpectVerifiedOrNotApplicable(
          testing::MakePoint("interconnect.nccl", variant, {{"bytes", bytes}}), n >= 2);
    }
  }
}

// Verify must see a run that never happened: Reset clears the output, and without Run the
// comparison fails. Runs on 2+ GPUs only.
TEST(InterconnectMultiGpu, VerifyFailsWhenTheOutputWasNeverWritten) {
  WW_REQUIRE_CUDA_DEVICE();
  if (DeviceCount() < 2) {
    std::printf("skipped: fewer than two GPUs\n");
    GTEST_SKIP() << "needs two GPUs";
  }
  std::vector<catalog::Point> points = {
      testing::MakePoint("interconnect.peer_copy", "peer_access",
                         {{"src", 1}, {"dst", 0}, {"bytes", 1 << 20}}),
      testing::MakePoint("interconnect.peer_read", "peer",
                         {{"src", 0}, {"dst", 1}, {"bytes", 1 << 20}}),
  };
  if (NcclLoads()) {
    points.push_back(testing::MakePoint("interconnect.nccl", "all_reduce", {{"bytes", 1 << 20}}));
  }
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  for (const catalog::Point& point : points) {
    StatusOr<std::unique_ptr<Case>> made =
        FindImplementation(point.family)->MakeCase(point, prop);
    ASSERT_TRUE(made.ok()) << point.Canonical() << ": " << made.status().ToString();
    ASSERT_TRUE((*made)->Setup(stream).ok()) << point.Canonical();
    ASSERT_TRUE((*made)->Reset(stream).ok()) << point.Canonical();
    EXPECT_FALSE((*made)->Verify(stream).status.ok()) << point.Canonical();
  }
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

}  // namespace
}  // namespace warpwatch::kernels
