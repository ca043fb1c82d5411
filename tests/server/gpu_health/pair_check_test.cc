// A node run's GPU pairs against the node's other pairs (server/gpu_health/pair_check.h), and the
// verdict that slow pairs give.
#include "server/gpu_health/pair_check.h"

#include <gtest/gtest.h>

#include "server/gpu_health/gpu_verdict.h"

namespace warpwatch::server::gpu_health {
namespace {

constexpr int64_t k64MiB = int64_t{64} << 20;

// The 12 ordered pairs of a 4-GPU NVSwitch node copying `bytes`, at 1 ms each (GPU0 as source
// 6 % faster: the direction asymmetry of docs/results/multigpu_interconnect/summary.txt), and
// `slow` of them slower by its factor.
std::vector<PairPoint> Node(int64_t bytes, const std::map<std::pair<int, int>, double>& slow = {}) {
  std::vector<PairPoint> out;
  for (int s = 0; s < 4; ++s) {
    for (int d = 0; d < 4; ++d) {
      if (s == d) continue;
      PairPoint p;
      p.case_key = "interconnect.peer_copy/peer_access?bytes=" + std::to_string(bytes) +
                   "&dst=" + std::to_string(d) + "&src=" + std::to_string(s);
      p.group = "interconnect.peer_copy/peer_access {\"bytes\": " + std::to_string(bytes) + "}";
      p.src = s;
      p.dst = d;
      p.bytes = bytes;
      p.median_seconds = 1e-3 * (s == 0 ? 0.94 : 1.0) * (1 + 0.001 * d);
      auto it = slow.find({s, d});
      if (it != slow.end()) p.median_seconds *= it->second;
      p.path = "NV18";
      out.push_back(p);
    }
  }
  return out;
}

TEST(PairCheckTest, APairFortyPercentSlowerThanTheNodesOtherPairsIsFound) {
  const std::vector<SlowPair> slow = FindSlowPairs(Node(k64MiB, {{{1, 2}, 1.4}}), {});
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0].src, 1);
  EXPECT_EQ(slow[0].dst, 2);
  EXPECT_EQ(slow[0].peers, 11);
  EXPECT_NEAR(slow[0].change, 0.40, 0.01);
  EXPECT_GE(slow[0].z, 3.5);
  EXPECT_EQ(DescribeSlowPair(slow[0]).rfind("GPU1->GPU2 40.", 0), 0u) << DescribeSlowPair(slow[0]);
  EXPECT_NE(DescribeSlowPair(slow[0]).find("slower than the node's 11 other NV18 pairs on "
                                           "interconnect.peer_copy/peer_access?bytes=67108864"),
            std::string::npos);
}

TEST(PairCheckTest, TheNodesOwnSpreadIsNotASlowPair) {
  EXPECT_TRUE(FindSlowPairs(Node(k64MiB), {}).empty());
  // 8 % slower: beyond the z, under the 10 % a pair must lose.
  EXPECT_TRUE(FindSlowPairs(Node(k64MiB, {{{1, 2}, 1.08}}), {}).empty());
}

TEST(PairCheckTest, LatencyCasesArePassedOver) {
  EXPECT_TRUE(FindSlowPairs(Node(4, {{{1, 2}, 3.0}}), {}).empty());
}

TEST(PairCheckTest, PairsAreComparedOnlyWithPairsOfTheirPath) {
  std::vector<PairPoint> points = Node(k64MiB);
  // GPU 3 reaches the others over PCIe only (and so 20 times slower): 6 SYS pairs among
  // themselves, none slow; the NV18 pairs are not compared with them.
  for (PairPoint& p : points) {
    if (p.src == 3 || p.dst == 3) {
      p.path = "SYS";
      p.median_seconds *= 20;
    }
  }
  EXPECT_TRUE(FindSlowPairs(points, {}).empty());
  // With too few pairs of one path to compare, nothing is said.
  std::vector<PairPoint> two(points.begin(), points.begin() + 3);
  two[0].median_seconds *= 2;
  EXPECT_TRUE(FindSlowPairs(two, {}).empty());
}

TEST(PairCheckTest, APairOfUnknownPathIsComparedWithNothing) {
  std::vector<PairPoint> points = Node(k64MiB, {{{1, 2}, 1.4}});
  for (PairPoint& p : points) {
    if (p.src == 1 && p.dst == 2) p.path = "";
  }
  EXPECT_TRUE(FindSlowPairs(points, {}).empty());
}

TEST(PairVerdictTest, ASlowPairOnTwoRunsIsADegradedInterconnectAndAQuarterIsFailing) {
  const TimePoint now = TimePoint(std::chrono::seconds(1800000000));
  auto decide = [&](double change) {
    GpuHistory history;
    history.device_uuid = "GPU-1";
    for (int night = 3; night >= 1; --night) {
      RunSummary r;
      r.run_id = 4 - night;
      r.started_at = now - std::chrono::hours(24 * night);
      r.night_devices = 8;
      r.fleet_judged_families = {"memory.coalescing"};
      r.fleet_judged_cases = 3;
      r.links_checked = 3;
      if (night < 3) r.slow_pairs.push_back({"GPU1->GPU2 slower", "interconnect.peer_copy", change, 40});
      history.runs.push_back(r);
    }
    return DecideGpuHealth(history, HealthPolicy(), now);
  };
  const v1::GpuHealth degraded = decide(0.12);
  EXPECT_EQ(degraded.state(), v1::GPU_HEALTH_STATE_DEGRADED) << degraded.DebugString();
  ASSERT_EQ(degraded.evidence_size(), 1);
  EXPECT_EQ(degraded.evidence(0).subsystem(), v1::GPU_SUBSYSTEM_INTERCONNECT);
  EXPECT_EQ(degraded.evidence(0).max_z(), 40);
  EXPECT_NE(degraded.fingerprint().find("GPU interconnect: GPU1->GPU2 slower for 2 runs"),
            std::string::npos)
      << degraded.fingerprint();
  EXPECT_EQ(decide(0.25).state(), v1::GPU_HEALTH_STATE_FAILING);
}

}  // namespace
}  // namespace warpwatch::server::gpu_health
