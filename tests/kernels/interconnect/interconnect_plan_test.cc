// CPU: the interconnect families' pair and size planning, nccl-tests' bus bandwidth arithmetic,
// the collectives' CPU reference and the NVLS guard.
#include "kernels/interconnect/interconnect_plan.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <set>
#include <string>

#include "kernels/interconnect/nccl/nccl_reference.h"
#include "kernels/interconnect/nccl/nccl_values.h"
#include "kernels/interconnect/nvls_guard.h"

namespace warpwatch::kernels {
namespace {

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

TEST(OrderedPairsTest, ANodeOfNGpusHasNTimesNMinusOneOrderedPairsWithoutSelfPairs) {
  EXPECT_TRUE(OrderedPairs(0).empty());
  EXPECT_TRUE(OrderedPairs(1).empty());
  EXPECT_EQ(OrderedPairs(2), (std::vector<std::pair<int, int>>{{0, 1}, {1, 0}}));
  for (int n : {4, 8}) {
    const auto pairs = OrderedPairs(n);
    EXPECT_EQ(pairs.size(), static_cast<size_t>(n * (n - 1)));
    std::set<std::pair<int, int>> distinct(pairs.begin(), pairs.end());
    EXPECT_EQ(distinct.size(), pairs.size());
    for (const auto& [src, dst] : pairs) {
      EXPECT_NE(src, dst);
      EXPECT_LT(src, n);
      EXPECT_LT(dst, n);
    }
  }
  EXPECT_EQ(OrderedPairs(4).front(), std::make_pair(0, 1));
  EXPECT_EQ(OrderedPairs(4).back(), std::make_pair(3, 2));
}

TEST(CheckPairTest, OnlyTwoDifferentGpusOfTheNodeApply) {
  EXPECT_TRUE(CheckPair(0, 1, 2).ok());
  EXPECT_TRUE(CheckPair(3, 0, 4).ok());
  const Status one = CheckPair(0, 1, 1);
  EXPECT_EQ(one.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(one.message(), "not applicable: this node has 1 GPU; the family needs two or more");
  const Status same = CheckPair(2, 2, 4);
  EXPECT_EQ(same.code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(StartsWith(same.message(), kNotApplicable)) << same.message();
  const Status beyond = CheckPair(1, 5, 4);
  EXPECT_EQ(beyond.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(beyond.message(), "not applicable: GPU 5 is beyond this node's 4 GPUs");
  EXPECT_EQ(CheckPair(-1, 0, 4).code(), StatusCode::kInvalidArgument);
}

TEST(CheckMultiGpuTest, ZeroAndOneGpuAreNotApplicable) {
  EXPECT_EQ(CheckMultiGpu(0).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(CheckMultiGpu(1).code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(CheckMultiGpu(2).ok());
}

// nccl-tests doc/PERFORMANCE.md: all_reduce busbw = algbw * 2(n-1)/n; all_gather and
// reduce_scatter busbw = algbw * (n-1)/n.
TEST(BusBandwidthFactorTest, MatchesNcclTestsFormulas) {
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(Collective::kAllReduce, 2), 1.0);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(Collective::kAllReduce, 4), 1.5);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(Collective::kAllReduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(Collective::kAllGather, 2), 0.5);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(Collective::kAllGather, 4), 0.75);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(Collective::kReduceScatter, 8), 0.875);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(Collective::kAllReduce, 1), 0.0);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(Collective::kAllGather, 0), 0.0);
}

TEST(PlanCollectiveTest, AllReduceMovesTheRequestedBytesOnEveryRank) {
  StatusOr<CollectivePlan> p = PlanCollective(Collective::kAllReduce, int64_t{1} << 30, 4, 4);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->count, int64_t{1} << 28);
  EXPECT_EQ(p->send_elements, p->count);
  EXPECT_EQ(p->recv_elements, p->count);
  EXPECT_DOUBLE_EQ(p->bytes, double(int64_t{1} << 30));
  // 1 GiB in 5 ms on 4 GPUs: algbw 214.7 GB/s, busbw 322.1 GB/s (nccl-tests' columns).
  const double seconds = 5e-3;
  const double algbw = p->bytes / seconds / 1e9;
  EXPECT_NEAR(algbw, 214.748, 1e-3);
  EXPECT_NEAR(algbw * p->bus_factor, 322.123, 1e-3);
}

TEST(PlanCollectiveTest, AllGatherSendsASliceAndReceivesTheWhole) {
  StatusOr<CollectivePlan> p = PlanCollective(Collective::kAllGather, 1 << 20, 4, 4);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->count, (1 << 20) / 16);
  EXPECT_EQ(p->send_elements, (1 << 20) / 16);
  EXPECT_EQ(p->recv_elements, (1 << 20) / 4);
  EXPECT_DOUBLE_EQ(p->bytes, double(1 << 20));
  EXPECT_DOUBLE_EQ(p->bus_factor, 0.75);
}

TEST(PlanCollectiveTest, ReduceScatterSendsTheWholeAndReceivesASlice) {
  StatusOr<CollectivePlan> p = PlanCollective(Collective::kReduceScatter, int64_t{1} << 30, 8, 4);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->count, int64_t{1} << 25);
  EXPECT_EQ(p->send_elements, int64_t{1} << 28);
  EXPECT_EQ(p->recv_elements, int64_t{1} << 25);
  EXPECT_DOUBLE_EQ(p->bytes, double(int64_t{1} << 30));
}

TEST(PlanCollectiveTest, SizesBelowOneElementPerRankRoundUpToOneElement) {
  StatusOr<CollectivePlan> g = PlanCollective(Collective::kAllGather, 8, 4, 4);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->count, 1);
  EXPECT_DOUBLE_EQ(g->bytes, 16.0);  // 1 float from each of 4 ranks
  StatusOr<CollectivePlan> r = PlanCollective(Collective::kAllReduce, 8, 4, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->count, 2);
  EXPECT_DOUBLE_EQ(r->bytes, 8.0);
  StatusOr<CollectivePlan> tiny = PlanCollective(Collective::kAllReduce, 1, 2, 4);
  ASSERT_TRUE(tiny.ok());
  EXPECT_EQ(tiny->count, 1);
}

TEST(PlanCollectiveTest, RefusesNonPositiveInputs) {
  EXPECT_EQ(PlanCollective(Collective::kAllReduce, 0, 2, 4).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(PlanCollective(Collective::kAllReduce, 8, 0, 4).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(PlanCollective(Collective::kAllGather, 8, 2, 0).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(NcclReferenceTest, AllGatherPlacesRankQsSliceAtQTimesCount) {
  const int64_t count = 5;
  for (int q = 0; q < 3; ++q) {
    for (int64_t i = 0; i < count; ++i) {
      EXPECT_EQ(NcclExpected(Collective::kAllGather, 1, 3, count, q * count + i),
                NcclSendValue(q, static_cast<uint64_t>(i)));
    }
  }
}

TEST(NcclReferenceTest, ReduceScatterSumsRankRsSliceOfEverySendBuffer) {
  const int64_t count = 7;
  const float want = NcclSendValue(0, 2 * count + 3) + NcclSendValue(1, 2 * count + 3) +
                     NcclSendValue(2, 2 * count + 3);
  EXPECT_EQ(NcclExpected(Collective::kReduceScatter, 2, 3, count, 3), want);
  EXPECT_EQ(NcclExpected(Collective::kAllReduce, 0, 3, count, 2 * count + 3), want);
}

TEST(NcclReferenceTest, SendValuesAreSmallNonZeroIntegersDifferentPerRank) {
  bool differ = false;
  for (uint64_t i = 0; i < 1000; ++i) {
    const float v = NcclSendValue(0, i);
    EXPECT_GE(v, 1.0f);
    EXPECT_LE(v, 16.0f);
    EXPECT_EQ(v, static_cast<float>(static_cast<int>(v)));
    differ |= v != NcclSendValue(1, i);
  }
  EXPECT_TRUE(differ);
}

TEST(NcclCheckedIndicesTest, AllUpToTheLimitThenStridedWithTheLast) {
  EXPECT_EQ(NcclCheckedIndices(3, 10), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(NcclCheckedIndices(10, 4), (std::vector<int64_t>{0, 3, 6, 9}));
  EXPECT_EQ(NcclCheckedIndices(11, 4), (std::vector<int64_t>{0, 3, 6, 9, 10}));
  EXPECT_TRUE(NcclCheckedIndices(0, 4).empty());
  const auto big = NcclCheckedIndices(int64_t{1} << 28, int64_t{1} << 20);
  EXPECT_LE(big.size(), (size_t{1} << 20) + 1);
  EXPECT_EQ(big.back(), (int64_t{1} << 28) - 1);
}

class NvlsGuardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* v = std::getenv(kNvlsVariable);
    had_ = v != nullptr;
    if (had_) saved_ = v;
  }
  void TearDown() override {
    if (had_) {
      ::setenv(kNvlsVariable, saved_.c_str(), 1);
    } else {
      ::unsetenv(kNvlsVariable);
    }
  }
  bool had_ = false;
  std::string saved_;
};

TEST_F(NvlsGuardTest, UnsetBecomesZeroSilently) {
  ::unsetenv(kNvlsVariable);
  EXPECT_EQ(KeepNvlsOff(), "");
  ASSERT_NE(std::getenv(kNvlsVariable), nullptr);
  EXPECT_STREQ(std::getenv(kNvlsVariable), "0");
}

TEST_F(NvlsGuardTest, OneIsOverriddenToZeroWithANote) {
  ::setenv(kNvlsVariable, "1", 1);
  const std::string note = KeepNvlsOff();
  EXPECT_STREQ(std::getenv(kNvlsVariable), "0");
  EXPECT_NE(note.find("NCCL_NVLS_ENABLE=\"1\" overridden to 0"), std::string::npos) << note;
}

TEST_F(NvlsGuardTest, ZeroIsLeftAsIs) {
  ::setenv(kNvlsVariable, "0", 1);
  EXPECT_EQ(KeepNvlsOff(), "");
  EXPECT_STREQ(std::getenv(kNvlsVariable), "0");
}

}  // namespace
}  // namespace warpwatch::kernels
