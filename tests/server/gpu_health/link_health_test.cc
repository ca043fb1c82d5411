// The links between a node's GPUs as GPU health evidence, end to end on a real PostgreSQL
// (migration 0022, server/store/pg_gpu_health_links.cc): the 8 GPUs of fleet_health_fixture.h
// on two 4-GPU nodes joined by NVSwitch (NV18 every pair), each run's environment recording its
// node's 6 pairs as the worker's NVML reader writes them.
#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "tests/server/gpu_health/fleet_health_fixture.h"

namespace warpwatch::server::testing {
namespace {

class LinkHealthTest : public FleetHealthTest {
 protected:
  void SetUp() override {
    FleetHealthTest::SetUp();
    environment_ = [this](int gpu) { return Environment(gpu); };
  }

  // GPU `gpu`'s environment: the 6 pairs of its node (GPUs 4k .. 4k+3, CUDA ordinals 0-3), NV18
  // unless links_ says otherwise for the pair (fleet GPU numbers, lower first).
  std::string Environment(int gpu) const {
    const int first = gpu / 4 * 4;
    std::string links;
    for (int a = 0; a < 4; ++a) {
      for (int b = a + 1; b < 4; ++b) {
        auto it = links_.find({first + a, first + b});
        const std::pair<std::string, int> link =
            it == links_.end() ? std::pair<std::string, int>{"NV18", 18} : it->second;
        // Zeros are left out, as protobuf's JSON writes them (src 0, nvlinks 0).
        links += std::string(links.empty() ? "" : ",") + "{" +
                 (a == 0 ? "" : "\"src\": " + std::to_string(a) + ", ") +
                 "\"dst\": " + std::to_string(b) + ", \"src_uuid\": \"" + Gpu(first + a) +
                 "\", \"dst_uuid\": \"" + Gpu(first + b) + "\", \"path\": \"" + link.first + "\"" +
                 (link.second == 0 ? ""
                                   : ", \"nvlinks\": " + std::to_string(link.second) +
                                         ", \"through_nvswitch\": true") +
                 ", \"pcie_path\": \"PHB\"}";
      }
    }
    return "{\"device\": {\"uuid\": \"" + Gpu(gpu) + "\"}, \"gpu_links\": [" + links + "]}";
  }

  // A node run on GPU 0 (the schedule fan-out's GPU of node 0): 64 MiB peer copies between its
  // 12 ordered pairs, those of `slow` slower by their factor, and a 1 GiB and an 8-byte
  // all-reduce over the node's 4 GPUs, slower by `all_reduce` and `all_reduce_small`.
  void NodeRun(const std::map<std::pair<int, int>, double>& slow = {}, double all_reduce = 1,
               double all_reduce_small = 1) {
    std::vector<Point> points;
    for (const auto& [bytes, factor] :
         {std::pair<int64_t, double>{int64_t{1} << 30, all_reduce}, {8, all_reduce_small}}) {
      Point p;
      p.family = "interconnect.nccl";
      p.variant = "all_reduce";
      p.params = {{"bytes", bytes}};
      p.median = (bytes > 8 ? 6.0e-3 : 2.0e-5) * factor;
      points.push_back(p);
    }
    for (int s = 0; s < 4; ++s) {
      for (int d = 0; d < 4; ++d) {
        if (s == d) continue;
        Point p;
        p.family = "interconnect.peer_copy";
        p.variant = "peer_access";
        p.params = {{"bytes", int64_t{64} << 20}, {"dst", d}, {"src", s}};
        auto it = slow.find({s, d});
        p.median = 1.8e-4 * (1 + 0.002 * d) * (it == slow.end() ? 1 : it->second);
        points.push_back(p);
      }
    }
    RunOptions options = OnDevice(Gpu(0));
    options.environment = Environment(0);
    AddRun(points, options);
    ASSERT_EQ(AnalyzeAll(), 1);
  }

  // Each of `gpus` HEALTHY with no interconnect evidence.
  void ExpectHealthyLinks(std::initializer_list<int> gpus) {
    for (int gpu : gpus) {
      const v1::GpuHealth h = Health(gpu);
      EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_HEALTHY) << Gpu(gpu) << h.DebugString();
      EXPECT_FALSE(HasInterconnectEvidence(h)) << Gpu(gpu) << h.DebugString();
    }
  }

  static bool HasInterconnectEvidence(const v1::GpuHealth& h) {
    for (const v1::GpuSubsystemEvidence& e : h.evidence()) {
      if (e.subsystem() == v1::GPU_SUBSYSTEM_INTERCONNECT) return true;
    }
    return false;
  }
  static bool InterconnectNormal(const v1::GpuHealth& h) {
    for (int s : h.normal()) {
      if (s == v1::GPU_SUBSYSTEM_INTERCONNECT) return true;
    }
    return false;
  }

  std::map<std::pair<int, int>, std::pair<std::string, int>> links_;
};

TEST_F(LinkHealthTest, APairThatLostAnNvlinkDegradesItsTwoGpusAndNoOther) {
  for (int night = 0; night < 3; ++night) CleanNight();
  links_[{1, 2}] = {"NV17", 17};
  CleanNight();
  const v1::GpuHealth watched = Health(1);
  EXPECT_EQ(watched.state(), v1::GPU_HEALTH_STATE_HEALTHY) << watched.DebugString();
  EXPECT_NE(watched.fingerprint().find("watching GPU interconnect"), std::string::npos)
      << watched.fingerprint();
  CleanNight();

  for (int gpu : {1, 2}) {
    const v1::GpuHealth h = Health(gpu);
    EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_DEGRADED) << Gpu(gpu) << h.DebugString();
    ASSERT_EQ(h.evidence_size(), 1) << h.DebugString();
    const v1::GpuSubsystemEvidence& e = h.evidence(0);
    EXPECT_EQ(e.subsystem(), v1::GPU_SUBSYSTEM_INTERCONNECT);
    EXPECT_EQ(e.runs(), 2);
    ASSERT_EQ(e.cases_size(), 1);
    const std::string other = gpu == 1 ? "GPU1-GPU2" : "GPU2-GPU1";
    EXPECT_EQ(e.cases(0).case_key(), other + " NV18 -> NV17 (fewer links than seen before; with " +
                                         Gpu(gpu == 1 ? 2 : 1) + ")");
  }
  // The node's other GPUs checked the same pair in their runs: it is not theirs.
  for (int gpu : {0, 3, 4, 5, 6, 7}) {
    const v1::GpuHealth h = Health(gpu);
    EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_HEALTHY) << Gpu(gpu) << h.DebugString();
    EXPECT_FALSE(HasInterconnectEvidence(h)) << Gpu(gpu) << h.DebugString();
    EXPECT_TRUE(InterconnectNormal(h)) << Gpu(gpu) << h.DebugString();
  }

  // The link comes back: two clean nights and the GPUs are healthy again.
  links_.clear();
  CleanNight();
  CleanNight();
  EXPECT_EQ(Health(1).state(), v1::GPU_HEALTH_STATE_HEALTHY) << Health(1).DebugString();
  // 2 nights x 2 GPUs, nothing after.
  EXPECT_EQ(Sql("SELECT count(*) FROM gpu_health_link_loss").at(0).at(0).as<int>(), 4);
}

TEST_F(LinkHealthTest, APairFallenBackToPcieIsFailingBeforeAnyTimingMoved) {
  for (int night = 0; night < 3; ++night) CleanNight();
  links_[{4, 7}] = {"SYS", 0};
  CleanNight();
  CleanNight();
  const v1::GpuHealth h = Health(7);
  EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_FAILING) << h.DebugString();
  ASSERT_EQ(h.evidence_size(), 1) << h.DebugString();
  EXPECT_TRUE(h.evidence(0).failing());
  EXPECT_NE(h.fingerprint().find("GPU3-GPU0 NV18 -> SYS"), std::string::npos) << h.fingerprint();
  EXPECT_EQ(Count("kind = 'OUTLIER'"), 0);  // no timing moved
}

// A repair makes the pair's links as they are now its reference: a GPU swapped for one with a
// link fewer, accepted by a person, is not degraded again on the next nights.
TEST_F(LinkHealthTest, ARepairMakesThePairsLinksAsTheyAreNowItsReference) {
  for (int night = 0; night < 3; ++night) CleanNight();
  links_[{1, 2}] = {"NV17", 17};
  CleanNight();
  CleanNight();
  ASSERT_EQ(Health(1).state(), v1::GPU_HEALTH_STATE_DEGRADED);
  ASSERT_TRUE(
      health_store_->AddMark(Gpu(1), v1::GPU_HEALTH_ACTION_REPAIRED, "admin-a", "reseated").ok());
  CleanNight();
  CleanNight();
  const v1::GpuHealth h = Health(1);
  EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_HEALTHY) << h.DebugString();
  EXPECT_FALSE(HasInterconnectEvidence(h)) << h.DebugString();
  // GPU 2 shares the pair: its reference was the pair's, so its newer runs are clean too.
  EXPECT_EQ(Health(2).state(), v1::GPU_HEALTH_STATE_HEALTHY) << Health(2).DebugString();
}

// The node's links are all there, but one pair copies 15 % slower than the node's other 11: both
// its GPUs are degraded on the second such night (failing from 20 %), the node's other GPUs, GPU 0
// included (the node run's own GPU), are not.
TEST_F(LinkHealthTest, APairANodeRunFindsSlowerThanTheNodesOtherPairsDegradesItsTwoGpus) {
  for (int night = 0; night < 3; ++night) {
    CleanNight();
    NodeRun();
  }
  for (int night = 0; night < 2; ++night) {
    CleanNight();
    NodeRun({{{1, 2}, 1.15}});
  }
  for (int gpu : {1, 2}) {
    const v1::GpuHealth h = Health(gpu);
    EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_DEGRADED) << Gpu(gpu) << h.DebugString();
    ASSERT_EQ(h.evidence_size(), 1) << h.DebugString();
    EXPECT_EQ(h.evidence(0).subsystem(), v1::GPU_SUBSYSTEM_INTERCONNECT);
    EXPECT_EQ(h.evidence(0).runs(), 2);
    EXPECT_FALSE(h.evidence(0).failing());
    EXPECT_NE(h.fingerprint().find("GPU1->GPU2 15.2 % slower than the node's 11 other NV18 pairs"),
              std::string::npos)
        << h.fingerprint();
  }
  ExpectHealthyLinks({0, 3, 4});
  EXPECT_EQ(Sql("SELECT count(*) FROM gpu_health_pair_slow").at(0).at(0).as<int>(), 2);
}

// A pair's 64 MiB copy 15 % slower on two nights after the detector's baseline: the interconnect
// fingerprint the issue asks for, "below its history and below the node's other pairs", on the
// pair's two GPUs only (the own-history finding counts on the pair, not the node).
TEST_F(LinkHealthTest, APairSlowerThanItsHistoryAndItsNodesOtherPairsShowsBothOnItsTwoGpus) {
  for (int night = 0; night < 6; ++night) {  // the detector's 5 baseline runs, and one more
    CleanNight();
    NodeRun({{{1, 2}, 1.0 + 0.001 * (night % 2)}});
  }
  for (int night = 0; night < 2; ++night) {
    CleanNight();
    NodeRun({{{1, 2}, 1.15}});
  }
  ASSERT_EQ(Count("kind = 'REGRESSION' AND family = 'interconnect.peer_copy' AND state = 'OPEN'"),
            1);
  for (int gpu : {1, 2}) {
    const v1::GpuHealth h = Health(gpu);
    EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_DEGRADED) << Gpu(gpu) << h.DebugString();
    ASSERT_EQ(h.evidence_size(), 1) << h.DebugString();
    EXPECT_EQ(h.evidence(0).runs(), 2);
    EXPECT_NE(h.fingerprint().find("GPU1->GPU2 15.2 % slower than the node's 11 other NV18 pairs"),
              std::string::npos)
        << h.fingerprint();
    EXPECT_NE(h.fingerprint().find(
                  "GPU1->GPU2 14.9 % slower than its own history on interconnect.peer_copy/"
                  "peer_access?bytes=67108864&dst=2&src=1 (finding "),
              std::string::npos)
        << h.fingerprint();
  }
  ExpectHealthyLinks({0, 3, 4});
}

// Every pair 15 % slower (an NVSwitch, not a link): the pairs agree with each other, so only their
// own history shows it, on every GPU of the node through its pairs; the other node stays HEALTHY.
TEST_F(LinkHealthTest, EveryPairSlowerThanItsHistoryDegradesEveryGpuOfTheNodeThroughItsPairs) {
  auto all = [](double factor) {
    std::map<std::pair<int, int>, double> slow;
    for (int s = 0; s < 4; ++s) {
      for (int d = 0; d < 4; ++d) {
        if (s != d) slow[{s, d}] = factor;
      }
    }
    return slow;
  };
  for (int night = 0; night < 6; ++night) {
    CleanNight();
    NodeRun(all(1.0 + 0.001 * (night % 2)));
  }
  for (int night = 0; night < 2; ++night) {
    CleanNight();
    NodeRun(all(1.15));
  }
  EXPECT_EQ(Sql("SELECT count(*) FROM gpu_health_pair_slow").at(0).at(0).as<int>(), 0)
      << "the pairs agree: no pair is slower than the others";
  for (int gpu : {0, 1, 2, 3}) {
    const v1::GpuHealth h = Health(gpu);
    EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_DEGRADED) << Gpu(gpu) << h.DebugString();
    ASSERT_EQ(h.evidence_size(), 1) << h.DebugString();
    EXPECT_EQ(h.evidence(0).subsystem(), v1::GPU_SUBSYSTEM_INTERCONNECT);
    // Its 6 ordered pairs (3 peers, both directions).
    EXPECT_EQ(h.evidence(0).cases_size(), 6) << h.DebugString();
  }
  for (int gpu : {4, 5, 6, 7}) {
    const v1::GpuHealth h = Health(gpu);
    EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_HEALTHY) << Gpu(gpu) << h.DebugString();
  }
}

// The node's all-reduce of 1 GiB 15 % slower than its own history on two nights: a collective has
// no pair, so every GPU of the node (the four its gpu_links name) has its interconnect DEGRADED
// (FAILING from 20 %), GPU 0 included; the other node's GPUs stay HEALTHY. The 8-byte all-reduce,
// 25 % slower on the same nights, adds nothing (latency, below the 1 MiB the pairs are judged
// at), nor does an all-reduce 5 % slower (HealthPolicy::history_min_change, next test).
TEST_F(LinkHealthTest, ANodesCollectiveSlowerThanItsOwnHistoryDegradesEveryGpuOfTheNode) {
  for (int night = 0; night < 6; ++night) {  // the detector's 5 baseline runs, and one more
    CleanNight();
    NodeRun({}, 1.0 + 0.001 * (night % 2), 1.0 + 0.001 * (night % 2));
  }
  for (int night = 0; night < 2; ++night) {
    CleanNight();
    NodeRun({}, 1.15, 1.25);
  }
  ASSERT_EQ(Count("kind = 'REGRESSION' AND family = 'interconnect.nccl' AND state = 'OPEN'"), 2)
      << "the detector did not open both collectives' findings";
  for (int gpu : {0, 1, 2, 3}) {
    const v1::GpuHealth h = Health(gpu);
    EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_DEGRADED) << Gpu(gpu) << h.DebugString();
    ASSERT_EQ(h.evidence_size(), 1) << h.DebugString();
    EXPECT_EQ(h.evidence(0).subsystem(), v1::GPU_SUBSYSTEM_INTERCONNECT);
    EXPECT_EQ(h.evidence(0).runs(), 2);
    EXPECT_FALSE(h.evidence(0).failing());
    ASSERT_EQ(h.evidence(0).cases_size(), 1) << h.DebugString();
    // 14.9 %: the baseline's runs alternate 1.000 and 1.001.
    EXPECT_EQ(h.evidence(0).cases(0).case_key().rfind(
                  "the node's 4 GPUs' interconnect.nccl/all_reduce?bytes=1073741824 14.9 % slower "
                  "than its own history (finding ",
                  0),
              0u)
        << h.evidence(0).cases(0).case_key();
  }
  ExpectHealthyLinks({4, 5, 6, 7});
  // The collective back at its baseline: two clean nights, whose node runs stand at no finding's
  // level, and the node's GPUs are HEALTHY again.
  for (int night = 0; night < 2; ++night) {
    CleanNight();
    NodeRun();
  }
  for (int gpu : {0, 1, 2, 3}) {
    const v1::GpuHealth h = Health(gpu);
    EXPECT_EQ(h.state(), v1::GPU_HEALTH_STATE_HEALTHY) << Gpu(gpu) << h.DebugString();
  }
}

TEST_F(LinkHealthTest, ACollectiveFivePercentSlowerThanItsHistoryMarksNoGpu) {
  for (int night = 0; night < 6; ++night) {  // the detector's 5 baseline runs, and one more
    CleanNight();
    NodeRun({}, 1.0 + 0.001 * (night % 2));
  }
  for (int night = 0; night < 2; ++night) {
    CleanNight();
    NodeRun({}, 1.05);
  }
  ASSERT_GE(Count("kind = 'REGRESSION' AND family = 'interconnect.nccl' AND state = 'OPEN'"), 1)
      << "the detector did not open the collective's finding";
  ExpectHealthyLinks({0, 1, 2, 3});
}

// A node run is its node's, not one more run of the GPU it ran on: the GPU's own runs and its
// nights leave it out (else a clean node run between two sick nights of a GPU's HBM would end
// their streak, and its night would count one more GPU).
TEST_F(LinkHealthTest, ANodeRunIsNotOneOfItsGpusOwnRuns) {
  CleanNight();
  NodeRun();
  const gpu_health::GpuHistory history = History(0);
  ASSERT_EQ(history.runs.size(), 1u);  // the nightly run only
  EXPECT_EQ(history.runs[0].night_devices, kDevices);
  EXPECT_EQ(Sql("SELECT count(*) FROM gpu_health_run WHERE node_run").at(0).at(0).as<int>(), 1);
}

}  // namespace
}  // namespace warpwatch::server::testing
