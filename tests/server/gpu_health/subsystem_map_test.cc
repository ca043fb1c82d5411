// The family -> subsystem table (server/gpu_health/subsystem_map.h) against the suite's catalog.
#include "server/gpu_health/subsystem_map.h"

#include <gtest/gtest.h>

#include <set>

#include "common/catalog/catalog.h"

namespace warpwatch::server::gpu_health {
namespace {

TEST(SubsystemMapTest, EveryFamilyOfTheNightlySuiteStressesASubsystem) {
  int families = 0;
  for (const catalog::FamilyInfo& family : catalog::Families()) {
    // Not in the per-GPU nightly suite: test-only, opt-in and node-scoped families (the
    // interconnect's pair and node verdicts are docs/interconnect.md's, not yet a subsystem).
    if (family.test_only || family.opt_in || family.node_scoped) continue;
    ++families;
    EXPECT_NE(SubsystemOfFamily(family.name), v1::GPU_SUBSYSTEM_UNSPECIFIED) << family.name;
  }
  EXPECT_EQ(families, 29);
}

TEST(SubsystemMapTest, EachFamilyIsInTheTableOnceAndIsAFamilyOfTheSuite) {
  std::set<std::string_view> seen;
  for (const FamilySubsystem& row : FamilySubsystems()) {
    EXPECT_TRUE(seen.insert(row.family).second) << row.family;
    EXPECT_NE(catalog::FindFamily(row.family), nullptr) << row.family;
    EXPECT_FALSE(row.why.empty()) << row.family;
  }
}

TEST(SubsystemMapTest, MemoryStreamingIsHbmAndArithmeticIsTheSms) {
  EXPECT_EQ(SubsystemOfFamily("memory.coalescing"), v1::GPU_SUBSYSTEM_HBM_BANDWIDTH);
  EXPECT_EQ(SubsystemOfFamily("instr.arithmetic"), v1::GPU_SUBSYSTEM_SM_ARITHMETIC);
  EXPECT_EQ(SubsystemOfFamily("transfer.host_device"), v1::GPU_SUBSYSTEM_PCIE_TRANSFERS);
  EXPECT_EQ(SubsystemOfFamily("no.such_family"), v1::GPU_SUBSYSTEM_UNSPECIFIED);
}

}  // namespace
}  // namespace warpwatch::server::gpu_health
