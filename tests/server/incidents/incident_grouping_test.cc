// File: tests/server/incidents/incident_grouping_test.cc
// One incident per change, with its cause class, on a real PostgreSQL through the real analyzer
// (docs/incidents.md "Grouping", "Cause classes").
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "tests/server/incidents/incident_test_fixture.h"

namespace warpwatch::server::testing {
namespace {

constexpr int kGpus = 8;

TEST_F(IncidentTest, ADriverChangeOnEightGpusSlowingThirtyCasesIsOneSoftwareIncidentNamingIt) {
  constexpr int kCases = 30;
  Baseline(kGpus, kCases);
  ASSERT_TRUE(Incidents().empty());
  GpuNight upgraded;
  upgraded.driver = kNewDriver;
  upgraded.scale = 1.05;
  for (int g = 0; g < kGpus; ++g) RunNight(g, kCases, upgraded);

  const std::vector<v1::Incident> incidents = Incidents();
  ASSERT_EQ(incidents.size(), 1u);
  const v1::Incident& i = incidents[0];
  EXPECT_EQ(i.kind(), v1::INCIDENT_KIND_SLOWDOWN);
  EXPECT_EQ(i.cause_class(), v1::CAUSE_CLASS_SOFTWARE);
  EXPECT_NE(i.cause().find("driver_version 580.65.06 -> 590.12"), std::string::npos) << i.cause();
  EXPECT_EQ(i.findings(), kGpus * kCases);
  EXPECT_EQ(i.cases(), kCases);
  EXPECT_EQ(i.device_uuids_size(), kGpus);
  EXPECT_EQ(i.state(), v1::INCIDENT_STATE_OPEN);
  StatusOr<std::vector<incidents::OpenIncident>> open = incidents_->ListOpenIncidents();
  ASSERT_TRUE(open.ok()) << open.status().ToString();
  EXPECT_EQ(open->size(), 1u);  // one alert for the change
}

TEST_F(IncidentTest, OneGpuSlowedAloneIsOneIncidentOfThatGpu) {
  constexpr int kCases = 6;
  Baseline(kGpus, kCases);
  for (int g = 0; g < kGpus; ++g) {
    GpuNight night;
    if (g == 3) night.scale = 1.06;
    RunNight(g, kCases, night);
  }
  const std::vector<v1::Incident> incidents = Incidents();
  ASSERT_EQ(incidents.size(), 1u);
  const v1::Incident& i = incidents[0];
  EXPECT_EQ(i.cause_class(), v1::CAUSE_CLASS_ONE_GPU);
  EXPECT_NE(i.cause().find("GPU GPU-3 moved"), std::string::npos) << i.cause();
  ASSERT_EQ(i.device_uuids_size(), 1);
  EXPECT_EQ(i.device_uuids(0), Gpu(3));
  EXPECT_EQ(i.cases(), kCases);
}

// A node run's peer copies, filed under the node's first GPU: when only one GPU pair's two
// directions slow, the incident names that pair of that node, read from the findings' case
// params as the store loads them (the sweep's FillCaseKey), not the node's first GPU.
TEST_F(IncidentTest, OnePairOfANodeSlowedIsOneIncidentNamingThePair) {
  constexpr int kNodes = 2, kPairs = 12;
  GpuNight clean;
  clean.case_of = &PairCase;
  for (int n = 0; n < 6; ++n) {
    for (int g = 0; g < kNodes; ++g) RunNight(g, kPairs, clean);
  }
  GpuNight slow = clean;
  slow.case_scale = {{4, 1.3}, {7, 1.3}};  // GPU1->GPU2 and GPU2->GPU1
  RunNight(0, kPairs, slow);
  RunNight(1, kPairs, clean);
  const std::vector<v1::Incident> incidents = Incidents();
  ASSERT_EQ(incidents.size(), 1u);
  const v1::Incident& i = incidents[0];
  EXPECT_EQ(i.cause_class(), v1::CAUSE_CLASS_ONE_GPU);
  EXPECT_EQ(i.cases(), 2);
  EXPECT_NE(i.cause().find("the GPU1-GPU2 pair of the node of GPU GPU-0 (its node runs' "
                           "interconnect.peer_copy) moved; 1 other node of its model did not"),
            std::string::npos)
      << i.cause();
}

// A new worker build on every GPU (labels.git_sha) and one GPU slower: its findings name the
// software difference, but seven GPUs ran the same software without moving, so the GPU is blamed.
TEST_F(IncidentTest, ASoftwareChangeEveryGpuRanButOneMovedIsThatGpus) {
  constexpr int kCases = 4;
  Baseline(kGpus, kCases);
  for (int g = 0; g < kGpus; ++g) {
    GpuNight night;
    night.labels = R"({"git_sha": "def"})";
    if (g == 5) night.scale = 1.06;
    RunNight(g, kCases, night);
  }
  const std::vector<v1::Incident> incidents = Incidents();
  ASSERT_EQ(incidents.size(), 1u);
  const v1::Incident& i = incidents[0];
  EXPECT_EQ(i.cause_class(), v1::CAUSE_CLASS_ONE_GPU) << i.cause();
  EXPECT_EQ(i.cause(),
            "GPU GPU-5 moved; 7 GPUs of the model with the same software did not (4 cases)");
  bool named = false;
  for (const std::string& line : i.ruled_out()) {
    named = named || line.find("labels.git_sha (none) -> def ran on 8 GPUs") != std::string::npos;
  }
  EXPECT_TRUE(named) << i.ShortDebugString().substr(0, 2000);
}

// The same build on only the GPU that moved (a rolling upgrade) stays a software incident.
TEST_F(IncidentTest, ASoftwareChangeOnlyTheMovingGpuRanIsSoftware) {
  constexpr int kCases = 3;
  Baseline(kGpus, kCases);
  for (int g = 0; g < kGpus; ++g) {
    GpuNight night;
    if (g == 2) {
      night.labels = R"({"git_sha": "def"})";
      night.scale = 1.06;
    }
    RunNight(g, kCases, night);
  }
  const std::vector<v1::Incident> incidents = Incidents();
  ASSERT_EQ(incidents.size(), 1u);
  EXPECT_EQ(incidents[0].cause_class(), v1::CAUSE_CLASS_SOFTWARE) << incidents[0].cause();
  EXPECT_NE(incidents[0].cause().find("labels.git_sha (none) -> def"), std::string::npos)
      << incidents[0].cause();
}

// A change the store does not record (equal software, no clock or condition differing) that moves
// most of the fleet: one incident for the fleet, not one per GPU (one alert for one change).
TEST_F(IncidentTest, AFleetThatMovedWithNothingRecordedDifferingIsOneIncident) {
  constexpr int kCases = 6;
  Baseline(kGpus, kCases);
  GpuNight slow;
  slow.scale = 1.05;
  for (int g = 0; g < kGpus; ++g) RunNight(g, kCases, slow);

  const std::vector<v1::Incident> incidents = Incidents();
  ASSERT_EQ(incidents.size(), 1u);
  const v1::Incident& i = incidents[0];
  EXPECT_EQ(i.cause_class(), v1::CAUSE_CLASS_UNKNOWN);
  EXPECT_NE(i.cause().find("8 of 8 GPUs of the model moved the same way on their HBM bandwidth "
                           "cases with nothing recorded differing (6 cases; memory.coalescing)"),
            std::string::npos)
      << i.cause();
  EXPECT_EQ(i.device_uuids_size(), kGpus);
  EXPECT_EQ(i.findings(), kGpus * kCases);
  EXPECT_EQ(i.state(), v1::INCIDENT_STATE_OPEN);
  StatusOr<std::vector<incidents::OpenIncident>> open = incidents_->ListOpenIncidents();
  ASSERT_TRUE(open.ok()) << open.status().ToString();
  EXPECT_EQ(open->size(), 1u);
  // Every GPU of the model ran in the window (the baseline nights are in it too), so the first
  // three GPUs opened incidents of their own and the fourth, half of the eight, made it the
  // fleet's; each merge is on the record. No finding was left without an incident.
  StatusOr<v1::Incident> got = incidents_->GetIncident(i.id());
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  int merges = 0;
  for (const v1::IncidentEvent& e : got->history()) {
    if (e.note().rfind("merged incident ", 0) == 0) {
      ++merges;
      EXPECT_NE(e.note().find("4 of 8 GPUs of the model moved the same way"), std::string::npos)
          << e.note();
    }
  }
  EXPECT_EQ(merges, 4);
  EXPECT_EQ(
      Sql("SELECT count(*) FROM regression WHERE kind = 'REGRESSION' AND incident_id IS NULL")[0][0]
          .as<int>(),
      0);
  EXPECT_EQ(Sweep().merged, 0);  // idempotent
  EXPECT_EQ(Incidents().size(), 1u);
}

// Six nights of 8 GPUs measuring 12 cases of two subsystems' families (IncidentTest::MixedCase).
class FleetSubsystemTest : public IncidentTest {
 protected:
  void SetUp() override {
    IncidentTest::SetUp();
    if (HasFatalFailure()) return;
    clean_.case_of = &MixedCase;
    for (int n = 0; n < 6; ++n) {
      for (int g = 0; g < kGpus; ++g) RunNight(g, kCases, clean_);
    }
  }
  // A night with cases [first, last) x 1.06.
  GpuNight Slower(int first, int last) const {
    GpuNight night = clean_;
    for (int c = first; c < last; ++c) night.case_scale[c] = 1.06;
    return night;
  }
  static constexpr int kCases = 12;  // 0-5 memory.coalescing (HBM), 6-11 instr.arithmetic (SM)
  GpuNight clean_;
};

// Two changes the store does not record, each on half of the fleet and on other families' cases
// (GPUs 0-3 slower on HBM-bound copies, 4-7 on FMA throughput): two fleet incidents, one per
// subsystem, not one of eight GPUs.
TEST_F(FleetSubsystemTest, FleetMovesOnTwoSubsystemsAreTwoIncidents) {
  for (int g = 0; g < kGpus; ++g) RunNight(g, kCases, g < 4 ? Slower(0, 6) : Slower(6, 12));
  const std::vector<v1::Incident> incidents = Incidents();
  ASSERT_EQ(incidents.size(), 2u);
  std::set<std::string> causes;
  for (const v1::Incident& i : incidents) {
    EXPECT_EQ(i.cause_class(), v1::CAUSE_CLASS_UNKNOWN) << i.cause();
    EXPECT_EQ(i.device_uuids_size(), 4) << i.cause();
    EXPECT_EQ(i.cases(), 6) << i.cause();
    causes.insert(i.cause().substr(0, i.cause().find(" with nothing")));
  }
  EXPECT_EQ(causes,
            (std::set<std::string>{
                "4 of 8 GPUs of the model moved the same way on their HBM bandwidth cases",
                "4 of 8 GPUs of the model moved the same way on their SM arithmetic cases"}));
}

// Half the fleet slower on FMA throughput (one fleet incident) and GPU 4 alone slower on its
// HBM-bound copies: GPU 4 stays its own incident, ONE_GPU, its subsystem's movers being one (it
// joined the fleet's before the fleet incidents were split by subsystem).
TEST_F(FleetSubsystemTest, AGpuAloneOnAnotherSubsystemThanTheFleetsMoveIsItsOwn) {
  for (int g = 0; g < kGpus; ++g) {
    RunNight(g, kCases, g < 4 ? Slower(6, 12) : g == 4 ? Slower(0, 6) : clean_);
  }
  const std::vector<v1::Incident> incidents = Incidents();
  ASSERT_EQ(incidents.size(), 2u);
  int fleet = 0, alone = 0;
  for (const v1::Incident& i : incidents) {
    if (i.cause().rfind("4 of 8 GPUs of the model moved the same way on their SM arithmetic", 0) ==
        0) {
      ++fleet;
      EXPECT_EQ(i.device_uuids_size(), 4);
    }
    if (i.cause().rfind("GPU GPU-4 moved; 7 same-night peers of its model did not", 0) == 0) {
      ++alone;
      EXPECT_EQ(i.cause_class(), v1::CAUSE_CLASS_ONE_GPU);
      EXPECT_EQ(i.cases(), 6);
    }
  }
  EXPECT_EQ(fleet, 1) << incidents[0].cause() << " | " << incidents[1].cause();
  EXPECT_EQ(alone, 1) << incidents[0].cause() << " | " << incidents[1].cause();
}

// A person's decision on a GPU's incident stands: it is not merged into the fleet's.
TEST_F(IncidentTest, AGpuIncidentSomeoneTriagedIsNotMergedIntoTheFleets) {
  constexpr int kCases = 3;
  GpuNight slow;
  slow.scale = 1.05;
  const int64_t first = FirstGpuSlowedAndTriaged(kGpus, kCases, slow);
  ASSERT_NE(first, 0);
  for (int g = 1; g < kGpus; ++g) RunNight(g, kCases, slow);

  const std::vector<v1::Incident> incidents = Incidents();
  ASSERT_EQ(incidents.size(), 2u);
  int fleet_devices = 0;
  for (const v1::Incident& i : incidents) {
    if (i.id() == first) {
      EXPECT_EQ(i.state(), v1::INCIDENT_STATE_ACKNOWLEDGED);
      ASSERT_EQ(i.device_uuids_size(), 1);
      EXPECT_EQ(i.device_uuids(0), Gpu(0));
    } else {
      fleet_devices = i.device_uuids_size();
      EXPECT_NE(i.cause().find("7 of 8 GPUs"), std::string::npos) << i.cause();
    }
  }
  EXPECT_EQ(fleet_devices, kGpus - 1);
  // Swept again (as after its confirmation run), a finding of the triaged incident stays there.
  Sql("UPDATE regression SET swept = false WHERE device_uuid = $1 AND kind = 'REGRESSION'", Gpu(0));
  EXPECT_EQ(Sweep().explained, kCases);
  for (const v1::Incident& i : Incidents()) {
    if (i.id() != first) continue;
    EXPECT_EQ(i.findings(), kCases);
    EXPECT_EQ(i.state(), v1::INCIDENT_STATE_ACKNOWLEDGED);
  }
  EXPECT_EQ(Incidents().size(), 2u);
}

// A triaged GPU incident kept beside the fleet's counts the window's movers as they stand after
// the sweep's merges: the GPUs whose incidents merged into the fleet's in that same sweep still
// moved. (Before, the count read the fleet incident's stored device list, refreshed only after
// the merges: the triaged GPU read as the only one that moved, ONE_GPU, one sweep behind.)
TEST_F(IncidentTest, ATriagedGpuIncidentCountsTheGpusMergedIntoTheFleetInTheSameSweep) {
  constexpr int kCases = 3;
  GpuNight slow;
  slow.scale = 1.05;
  const int64_t first = FirstGpuSlowedAndTriaged(kGpus, kCases, slow);
  ASSERT_NE(first, 0);
  auto triaged = [&]() -> v1::Incident {
    for (const v1::Incident& i : Incidents()) {
      if (i.id() == first) return i;
    }
    ADD_FAILURE() << "incident " << first << " is gone";
    return v1::Incident();
  };
  for (int g = 1; g < 3; ++g) RunNight(g, kCases, slow);
  EXPECT_EQ(triaged().cause_class(), v1::CAUSE_CLASS_ONE_GPU) << triaged().cause();  // 3 of 8
  RunNight(3, kCases, slow);  // the fourth of eight: GPUs 1-3 merge into the fleet's incident
  ASSERT_EQ(Incidents().size(), 2u);
  v1::Incident i = triaged();
  EXPECT_EQ(i.cause_class(), v1::CAUSE_CLASS_UNKNOWN) << i.cause();
  EXPECT_NE(i.cause().find("4 of 8 GPUs of the model moved the same way"), std::string::npos)
      << i.cause();
  RunNight(4, kCases, slow);  // joins the fleet's incident directly
  i = triaged();
  EXPECT_NE(i.cause().find("5 of 8 GPUs of the model moved the same way"), std::string::npos)
      << i.cause();
  EXPECT_EQ(i.state(), v1::INCIDENT_STATE_ACKNOWLEDGED);
}

TEST_F(IncidentTest, AClockDropIsAnEnvironmentIncident) {
  constexpr int kCases = 4;
  Baseline(2, kCases);
  GpuNight slow_clock;
  slow_clock.clock_mhz = 1600;
  slow_clock.scale = 1980.0 / 1600;  // the same cycles at a lower clock
  RunNight(0, kCases, slow_clock);
  const std::vector<v1::Incident> incidents = Incidents();
  ASSERT_EQ(incidents.size(), 1u);
  EXPECT_EQ(incidents[0].cause_class(), v1::CAUSE_CLASS_ENVIRONMENT);
  EXPECT_NE(incidents[0].cause().find("1980 -> 1600 MHz"), std::string::npos)
      << incidents[0].cause();
  StatusOr<std::vector<incidents::OpenIncident>> open = incidents_->ListOpenIncidents();
  ASSERT_TRUE(open.ok());
  EXPECT_EQ(open->size(), 1u);
}

// The H100 proof of issue 26 item 4(b) (docs/results/incident_proofs.md): one GPU, no peers, a
// copy running beside the suite (the worker's test_contention_* labels), cycles moving with the
// time. The findings' explanations rank "conditions differ" first; the incident follows them.
TEST_F(IncidentTest, AGpuLoadedBesideTheSuiteIsAnEnvironmentIncidentNamingTheLoad) {
  constexpr int kCases = 4;
  Baseline(1, kCases);
  GpuNight loaded;
  loaded.scale = 1.2;
  loaded.labels = R"({"test_contention_engine": "copy", "test_contention_gib": "1"})";
  RunNight(0, kCases, loaded);
  const std::vector<v1::Incident> incidents = Incidents();
  ASSERT_EQ(incidents.size(), 1u);
  EXPECT_EQ(incidents[0].cause_class(), v1::CAUSE_CLASS_ENVIRONMENT) << incidents[0].cause();
  EXPECT_NE(incidents[0].cause().find("test_contention_engine (none) -> copy"), std::string::npos)
      << incidents[0].cause();
  EXPECT_EQ(incidents[0].findings(), kCases);
}

TEST_F(IncidentTest, EveryFindingKeepsItsExplanationAndItsIncident) {
  constexpr int kCases = 3;
  Baseline(2, kCases);
  GpuNight upgraded;
  upgraded.driver = kNewDriver;
  upgraded.scale = 1.05;
  RunNight(0, kCases, upgraded);
  pqxx::result r =
      Sql("SELECT count(*) FILTER (WHERE explanation IS NULL OR incident_id IS NULL OR NOT swept),"
          " count(*) FROM regression WHERE kind = 'REGRESSION'");
  EXPECT_EQ(r[0][0].as<int>(), 0);
  EXPECT_EQ(r[0][1].as<int>(), kCases);
  ASSERT_EQ(Incidents().size(), 1u);
  StatusOr<v1::Incident> got = incidents_->GetIncident(Incidents()[0].id());
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->regressions_size(), kCases);
  const v1::Explanation& e = got->regressions(0).explanation();
  ASSERT_GE(e.environment_size(), 1);
  EXPECT_EQ(e.environment(0).field(), "driver_version");
  EXPECT_EQ(e.environment(0).new_value(), kNewDriver);
  EXPECT_NE(e.counters_note().find("the baseline runs have no counters"), std::string::npos);
  EXPECT_EQ(got->explanation().causes(0).cause_class(), v1::CAUSE_CLASS_SOFTWARE);
}

TEST_F(IncidentTest, SweepingAgainChangesNothing) {
  constexpr int kCases = 3;
  Baseline(2, kCases);
  GpuNight slow;
  slow.scale = 1.06;
  RunNight(1, kCases, slow);
  const std::vector<v1::Incident> before = Incidents();
  const incidents::SweepSummary again = Sweep();
  EXPECT_EQ(again.explained, 0);
  EXPECT_EQ(again.moved, 0);
  const std::vector<v1::Incident> after = Incidents();
  ASSERT_EQ(after.size(), before.size());
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0].findings(), before[0].findings());
  EXPECT_EQ(after[0].state(), before[0].state());
}

}  // namespace
}  // namespace warpwatch::server::testing
