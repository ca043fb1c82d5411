// File: tests/server/incidents/incident_key_test.cc
// Which cause candidate a finding's explanation gives its incident (incident_key.h).
#include "server/incidents/incident_key.h"

#include <gtest/gtest.h>

#include "server/incidents/explain/cause_ranking.h"

namespace warpwatch::server::incidents {
namespace {

// A slowdown on GPU-1 whose explanation records `differences` and nothing else moving (cycles
// moved with the time), ranked as the explainer ranks it.
v1::Regression Finding(const std::vector<v1::EnvironmentDifference>& differences) {
  v1::Regression f;
  f.set_kind(v1::REGRESSION_KIND_REGRESSION);
  f.set_device_uuid("GPU-1");
  f.set_gpu_model("NVIDIA H100 80GB HBM3");
  v1::Explanation* e = f.mutable_explanation();
  for (const v1::EnvironmentDifference& d : differences) *e->add_environment() = d;
  e->mutable_clocks()->set_verdict("cycles");
  e->mutable_clocks()->set_time_change(0.1);
  e->mutable_clocks()->set_cycles_change(0.1);
  RankCauses(e);
  return f;
}

v1::EnvironmentDifference Difference(const std::string& field, v1::DifferenceArea area,
                                     const std::string& baseline, const std::string& now) {
  v1::EnvironmentDifference d;
  d.set_field(field);
  d.set_area(area);
  d.add_baseline(baseline);
  d.set_new_value(now);
  return d;
}

std::string CauseKey(const v1::Regression& f) {
  FindingOrigin origin;
  origin.night = "2026-11-27";
  std::optional<IncidentKey> key = KeyOf(f, origin);
  return key ? key->cause_key : "(none)";
}

TEST(IncidentKeyTest, ACoTenantsContentionLabelIsTheEnvironment) {
  const v1::Regression f = Finding({Difference(
      "labels.test_contention_engine", v1::DIFFERENCE_AREA_CONDITIONS, "", "copy")});
  ASSERT_EQ(f.explanation().causes(0).cause_class(), v1::CAUSE_CLASS_ENVIRONMENT);
  EXPECT_EQ(CauseKey(f), "environment:GPU-1");
}

TEST(IncidentKeyTest, AnotherClockSettingIsTheEnvironment) {
  EXPECT_EQ(CauseKey(Finding({Difference("memory_clock_mhz_start", v1::DIFFERENCE_AREA_CLOCKS,
                                         "2619", "1593")})),
            "environment:GPU-1");
}

// Power at the start of a healthy H100's nightly runs swings from 81 to 219 W: it ranks below
// "nothing recorded differs" (cause_ranking.h), so a GPU's own slowdown stays that GPU's incident.
TEST(IncidentKeyTest, PowerOrTemperatureAloneLeaveTheGpu) {
  const v1::Regression f = Finding(
      {Difference("power_w_start", v1::DIFFERENCE_AREA_CONDITIONS, "137.5", "82.7"),
       Difference("temperature_c_end", v1::DIFFERENCE_AREA_CONDITIONS, "38", "45")});
  ASSERT_EQ(f.explanation().causes(0).cause_class(), v1::CAUSE_CLASS_UNKNOWN);
  ASSERT_EQ(f.explanation().causes(1).cause_class(), v1::CAUSE_CLASS_ENVIRONMENT);
  EXPECT_EQ(CauseKey(f), "gpu:GPU-1");
}

TEST(IncidentKeyTest, ASoftwareChangeGoesAheadOfConditions) {
  EXPECT_EQ(CauseKey(Finding({Difference("driver_version", v1::DIFFERENCE_AREA_SOFTWARE, "580",
                                         "590"),
                              Difference("labels.test_contention_engine",
                                         v1::DIFFERENCE_AREA_CONDITIONS, "", "copy")})),
            "software:driver_version 580 -> 590");
}

// Fleet keys carry the subsystem of the move; the bare prefix of keys stored before the split is
// still a fleet key, of no subsystem.
TEST(IncidentKeyTest, AFleetKeyNamesItsSubsystemAndReadsBack) {
  IncidentKey key;
  key.window_key = "night:2026-11-27";
  key.cause_key = "gpu:GPU-1";
  const IncidentKey fleet = FleetKeyOf(key, v1::GPU_SUBSYSTEM_HBM_BANDWIDTH);
  EXPECT_EQ(fleet.cause_key, "fleet:unrecorded:hbm_bandwidth");
  EXPECT_EQ(fleet.window_key, key.window_key);
  EXPECT_TRUE(IsFleetKey(fleet.cause_key));
  EXPECT_EQ(FleetSubsystem(fleet.cause_key), v1::GPU_SUBSYSTEM_HBM_BANDWIDTH);
  EXPECT_EQ(FleetSubsystem(FleetKeyOf(key, v1::GPU_SUBSYSTEM_LAUNCH_LATENCY).cause_key),
            v1::GPU_SUBSYSTEM_LAUNCH_LATENCY);
  EXPECT_TRUE(IsFleetKey(kFleetCauseKey));
  EXPECT_EQ(FleetSubsystem(kFleetCauseKey), v1::GPU_SUBSYSTEM_UNSPECIFIED);
  EXPECT_FALSE(IsFleetKey("fleet:unrecordedx"));
  EXPECT_FALSE(IsFleetKey("gpu:GPU-1"));
  EXPECT_EQ(FleetSubsystem("fleet:unrecorded:no_such_part"), v1::GPU_SUBSYSTEM_UNSPECIFIED);
}

v1::Regression OfFamily(const std::string& family) {
  v1::Regression f;
  f.mutable_case_()->set_family(family);
  return f;
}

TEST(IncidentKeyTest, TheMainSubsystemIsTheOneMostFindingsStress) {
  EXPECT_EQ(MainSubsystem({OfFamily("instr.arithmetic"), OfFamily("memory.coalescing"),
                           OfFamily("memory.coalescing")}),
            v1::GPU_SUBSYSTEM_HBM_BANDWIDTH);
  EXPECT_EQ(MainSubsystem({OfFamily("instr.arithmetic"), OfFamily("dynamic_parallelism"),
                           OfFamily("dynamic_parallelism")}),
            v1::GPU_SUBSYSTEM_LAUNCH_LATENCY);
  // A tie goes to the lower enum value (HBM bandwidth 1, SM arithmetic 3); unmapped families
  // count for none.
  EXPECT_EQ(MainSubsystem({OfFamily("instr.arithmetic"), OfFamily("memory.coalescing"),
                           OfFamily("no.such_family"), OfFamily("no.such_family")}),
            v1::GPU_SUBSYSTEM_HBM_BANDWIDTH);
  EXPECT_EQ(MainSubsystem({OfFamily("no.such_family")}), v1::GPU_SUBSYSTEM_UNSPECIFIED);
  EXPECT_EQ(SubsystemCases(v1::GPU_SUBSYSTEM_HBM_BANDWIDTH), "their HBM bandwidth cases");
}

}  // namespace
}  // namespace warpwatch::server::incidents
