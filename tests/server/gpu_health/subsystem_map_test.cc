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
    if (family.test_only || family.opt_in) continue;  // not in the nightly suite
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
