// ExpandSpec: selection, defaults, overrides, ordering, and errors naming their field.
#include "common/catalog/plan.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "common/catalog/catalog.h"

namespace warpwatch::catalog {
namespace {

v1::JobSpec Spec(std::vector<std::string> families, std::vector<std::string> variants = {}) {
  v1::JobSpec spec;
  for (const std::string& f : families) spec.add_families(f);
  for (const std::string& v : variants) spec.add_variants(v);
  return spec;
}

void AddAxis(v1::JobSpec* spec, const std::string& family, const std::string& axis,
             std::vector<int64_t> values) {
  v1::AxisOverride* o = spec->add_axes();
  o->set_family(family);
  o->set_axis(axis);
  for (int64_t v : values) o->add_values(v);
}

std::vector<std::string> Keys(const v1::JobSpec& spec, PlanLimits limits = {}) {
  StatusOr<std::vector<Point>> points = ExpandSpec(spec, limits);
  EXPECT_TRUE(points.ok()) << points.status().ToString();
  std::vector<std::string> keys;
  if (points.ok()) {
    for (const Point& p : *points) keys.push_back(p.Canonical());
  }
  return keys;
}

std::string Error(const v1::JobSpec& spec, PlanLimits limits = {}) {
  StatusOr<std::vector<Point>> points = ExpandSpec(spec, limits);
  if (points.ok()) return "OK";
  EXPECT_EQ(points.status().code(), StatusCode::kInvalidArgument);
  return points.status().message();
}

TEST(ExpandSpecTest, DefaultsAreTheNightlyValuesInCatalogOrder) {
  EXPECT_EQ(Keys(Spec({"occupancy.block_size"})),
            (std::vector<std::string>{
                "occupancy.block_size/fixed?block_size=32&n=16777216",
                "occupancy.block_size/fixed?block_size=64&n=16777216",
                "occupancy.block_size/fixed?block_size=128&n=16777216",
                "occupancy.block_size/fixed?block_size=256&n=16777216",
                "occupancy.block_size/fixed?block_size=512&n=16777216",
                "occupancy.block_size/fixed?block_size=1024&n=16777216",
                "occupancy.block_size/occupancy_api?n=16777216",
            }));
}

TEST(ExpandSpecTest, AxesLimitedToSomeVariantsMultiplyOnlyThoseVariants) {
  v1::JobSpec spec = Spec({"memory.coalescing"});
  AddAxis(&spec, "", "n", {1024});
  EXPECT_EQ(Keys(spec), (std::vector<std::string>{
                            "memory.coalescing/copy?block_size=256&n=1024",
                            "memory.coalescing/scattered?block_size=256&n=1024",
                            "memory.coalescing/strided?block_size=256&n=1024&stride=1",
                            "memory.coalescing/strided?block_size=256&n=1024&stride=2",
                            "memory.coalescing/strided?block_size=256&n=1024&stride=4",
                            "memory.coalescing/strided?block_size=256&n=1024&stride=8",
                            "memory.coalescing/strided?block_size=256&n=1024&stride=32",
                            "memory.coalescing/memcpy?n=1024",
                        }));
}

TEST(ExpandSpecTest, OverridesReplaceNightlyValuesAndKeepTheirOrder) {
  v1::JobSpec spec = Spec({"occupancy.registers"}, {"regs_unbounded"});
  AddAxis(&spec, "", "block_size", {256, 128});
  AddAxis(&spec, "occupancy.registers", "n", {2048, 1024});
  EXPECT_EQ(Keys(spec), (std::vector<std::string>{
                            "occupancy.registers/regs_unbounded?block_size=256&n=2048",
                            "occupancy.registers/regs_unbounded?block_size=128&n=2048",
                            "occupancy.registers/regs_unbounded?block_size=256&n=1024",
                            "occupancy.registers/regs_unbounded?block_size=128&n=1024",
                        }));
}

TEST(ExpandSpecTest, FamilyGlobsSelectInCatalogOrderOnce) {
  v1::JobSpec spec = Spec({"shared.*", "memory.coalescing", "memory.c*"}, {"copy"});
  EXPECT_EQ(Keys(spec), (std::vector<std::string>{
                            "memory.coalescing/copy?block_size=256&n=16777216",
                            "memory.coalescing/copy?block_size=256&n=67108864",
                            "shared.transpose/copy?block_rows=8&side=4096",
                            "shared.transpose/copy?block_rows=8&side=8192",
                        }));
}

TEST(ExpandSpecTest, GlobsNeverSelectTestOnlyFamilies) {
  for (std::string pattern : {"*", "testing.*", "testing.faul?"}) {
    StatusOr<std::vector<Point>> points = ExpandSpec(Spec({pattern}), PlanLimits{1 << 20});
    if (!points.ok()) {
      EXPECT_EQ(points.status().message(),
                "spec.families[0]: \"" + pattern + "\" matches no family");
      continue;
    }
    for (const Point& p : *points) EXPECT_NE(p.family, "testing.fault") << pattern;
  }
  EXPECT_EQ(Error(Spec({"testing.*"})), "spec.families[0]: \"testing.*\" matches no family");
}

TEST(ExpandSpecTest, GlobsNeverSelectOptInFamiliesAndTheirNameDoes) {
  for (std::string pattern : {"*", "example.*", "*.grid_stride"}) {
    StatusOr<std::vector<Point>> points = ExpandSpec(Spec({pattern}), PlanLimits{1 << 20});
    if (!points.ok()) {
      EXPECT_EQ(points.status().message(),
                "spec.families[0]: \"" + pattern + "\" matches no family");
      continue;
    }
    for (const Point& p : *points) EXPECT_NE(p.family, "example.grid_stride") << pattern;
  }
  EXPECT_EQ(
      Keys(Spec({"example.grid_stride"})),
      (std::vector<std::string>{"example.grid_stride/one_per_thread?block_size=256&n=16777216",
                                "example.grid_stride/grid_stride?block_size=256&n=16777216"}));
}

TEST(ExpandSpecTest, GpuJobGlobsNeverSelectNodeScopedFamilies) {
  StatusOr<std::vector<Point>> points = ExpandSpec(Spec({"*"}), PlanLimits{1 << 20});
  ASSERT_TRUE(points.ok()) << points.status().ToString();
  for (const Point& p : *points) EXPECT_FALSE(FindFamily(p.family)->node_scoped) << p.family;
  EXPECT_EQ(Error(Spec({"interconnect.*"})),
            "spec.families[0]: \"interconnect.*\" matches no family");
}

TEST(ExpandSpecTest, NodeJobGlobsSelectOnlyNodeScopedFamilies) {
  v1::JobSpec spec = Spec({"*"});
  spec.set_node_scoped(true);
  StatusOr<std::vector<Point>> points = ExpandSpec(spec, PlanLimits{1 << 20});
  ASSERT_TRUE(points.ok()) << points.status().ToString();
  std::set<std::string> families;
  for (const Point& p : *points) families.insert(p.family);
  EXPECT_EQ(families, (std::set<std::string>{"interconnect.peer_copy", "interconnect.peer_read",
                                             "interconnect.nccl"}));
}

TEST(ExpandSpecTest, ExactNamesOfTheOtherScopeAreRefusedWithTheFix) {
  EXPECT_EQ(Error(Spec({"interconnect.nccl"})),
            "spec.families[0]: \"interconnect.nccl\" measures the node's GPUs together: submit "
            "it as a node job (spec.node_scoped)");
  v1::JobSpec node = Spec({"interconnect.nccl", "reduce"});
  node.set_node_scoped(true);
  EXPECT_EQ(Error(node),
            "spec.families[1]: \"reduce\" measures one GPU; a node job (spec.node_scoped) takes "
            "node-scoped families only");
}

// The pair axes sweep GPU ordinals 0..7 (absent GPUs answer "not applicable" at run time); the
// collectives sweep nccl-tests' 8 B .. 1 GiB in factors of 8.
TEST(ExpandSpecTest, NodeFamiliesPlanEveryOrderedPairAndTheCollectiveSizes) {
  v1::JobSpec spec = Spec({"interconnect.peer_copy"}, {"peer_access"});
  spec.set_node_scoped(true);
  AddAxis(&spec, "", "src", {0, 1, 2, 3});
  AddAxis(&spec, "", "dst", {0, 1, 2, 3});
  AddAxis(&spec, "", "bytes", {4});
  const std::vector<std::string> keys = Keys(spec);
  ASSERT_EQ(keys.size(), 16u);
  EXPECT_EQ(keys[1], "interconnect.peer_copy/peer_access?bytes=4&dst=1&src=0");
  v1::JobSpec nccl = Spec({"interconnect.nccl"}, {"all_reduce"});
  nccl.set_node_scoped(true);
  const std::vector<std::string> sizes = Keys(nccl);
  ASSERT_EQ(sizes.size(), 10u);
  EXPECT_EQ(sizes.front(), "interconnect.nccl/all_reduce?bytes=8");
  EXPECT_EQ(sizes.back(), "interconnect.nccl/all_reduce?bytes=1073741824");
  AddAxis(&nccl, "", "bytes", {12});
  EXPECT_EQ(Error(nccl), "spec.axes[0].values[0]: bytes 12 is not a power of two");
}

TEST(ExpandSpecTest, TestOnlyFamilyIsSelectedByExactName) {
  std::vector<std::string> keys = Keys(Spec({"testing.fault"}, {"trap"}));
  EXPECT_EQ(keys, (std::vector<std::string>{"testing.fault/trap?n=1048576"}));
}

TEST(ExpandSpecTest, VariantGlobsFilterVariants) {
  std::vector<std::string> keys = Keys(Spec({"reduce"}, {"unrolling?", "cub"}));
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "reduce/unrolling2?block_size=256&n=16777216",
                      "reduce/unrolling4?block_size=256&n=16777216",
                      "reduce/unrolling8?block_size=256&n=16777216",
                      "reduce/cub?n=16777216",
                  }));
}

TEST(ExpandSpecTest, VariantGlobWithSlashMatchesFamilySlashVariant) {
  v1::JobSpec spec = Spec({"memory.coalescing", "shared.transpose"}, {"shared.*/copy"});
  EXPECT_EQ(Keys(spec), (std::vector<std::string>{
                            "shared.transpose/copy?block_rows=8&side=4096",
                            "shared.transpose/copy?block_rows=8&side=8192",
                        }));
}

TEST(ExpandSpecTest, FamilyNamedOverrideBeatsGenericOverrideInEitherOrder) {
  const std::vector<std::string> expected = {
      "memory.vector_width/w16?block_size=256&n=1024",
      "memory.aos_soa/soa?block_size=256&n=4096",
  };
  v1::JobSpec generic_first = Spec({"memory.vector_width", "memory.aos_soa"}, {"w16", "soa"});
  AddAxis(&generic_first, "", "n", {1024});
  AddAxis(&generic_first, "memory.aos_*", "n", {4096});
  EXPECT_EQ(Keys(generic_first), expected);

  v1::JobSpec specific_first = Spec({"memory.vector_width", "memory.aos_soa"}, {"w16", "soa"});
  AddAxis(&specific_first, "memory.aos_*", "n", {4096});
  AddAxis(&specific_first, "", "n", {1024});
  EXPECT_EQ(Keys(specific_first), expected);
}

TEST(ExpandSpecTest, LaterOverrideOfEqualStandingWins) {
  v1::JobSpec spec = Spec({"memory.aos_soa"}, {"soa"});
  AddAxis(&spec, "", "n", {1024});
  AddAxis(&spec, "", "n", {2048});
  EXPECT_EQ(Keys(spec), (std::vector<std::string>{"memory.aos_soa/soa?block_size=256&n=2048"}));
}

TEST(ExpandSpecTest, GenericOverrideSkipsFamiliesWithoutTheAxis) {
  v1::JobSpec spec = Spec({"memory.coalescing", "shared.transpose"}, {"copy"});
  AddAxis(&spec, "", "side", {64});
  AddAxis(&spec, "", "n", {2048});
  EXPECT_EQ(Keys(spec), (std::vector<std::string>{
                            "memory.coalescing/copy?block_size=256&n=2048",
                            "shared.transpose/copy?block_rows=8&side=64",
                        }));
}

TEST(ExpandSpecTest, ErrorsNameTheField) {
  EXPECT_EQ(Error(Spec({})), "spec.families: at least one family is required");
  EXPECT_EQ(Error(Spec({"reduce", "foo"})), "spec.families[1]: unknown family \"foo\"");
  EXPECT_EQ(Error(Spec({"reduce", ""})), "spec.families[1]: empty");
  EXPECT_EQ(Error(Spec({"nothing.*"})), "spec.families[0]: \"nothing.*\" matches no family");
  EXPECT_EQ(Error(Spec({"reduce"}, {"warp_shuffle", "nope*"})),
            "spec.variants[1]: \"nope*\" matches no variant of the selected families");
  EXPECT_EQ(Error(Spec({"reduce"}, {""})), "spec.variants[0]: empty");

  v1::JobSpec spec = Spec({"reduce"});
  AddAxis(&spec, "", "stride", {1});
  EXPECT_EQ(Error(spec), "spec.axes[0].axis: no selected family has axis \"stride\"");

  spec = Spec({"reduce", "memory.coalescing"});
  AddAxis(&spec, "reduce", "stride", {1});
  EXPECT_EQ(Error(spec),
            "spec.axes[0].axis: no selected family matching \"reduce\" has axis \"stride\"");

  spec = Spec({"reduce"});
  AddAxis(&spec, "", "", {1});
  EXPECT_EQ(Error(spec), "spec.axes[0].axis: empty");

  spec = Spec({"reduce"});
  AddAxis(&spec, "", "n", {1024});
  AddAxis(&spec, "memory.*", "n", {1024});
  EXPECT_EQ(Error(spec), "spec.axes[1].family: \"memory.*\" matches no selected family");

  spec = Spec({"memory.coalescing"});
  AddAxis(&spec, "", "block_size", {64, 128, 1000});
  EXPECT_EQ(Error(spec), "spec.axes[0].values[2]: block_size 1000 is not a multiple of 32");

  spec = Spec({"memory.coalescing"});
  AddAxis(&spec, "", "block_size", {0});
  EXPECT_EQ(Error(spec), "spec.axes[0].values[0]: block_size 0 is outside [32, 1024]");

  spec = Spec({"memory.coalescing"});
  AddAxis(&spec, "", "block_size", {});
  EXPECT_EQ(Error(spec), "spec.axes[0].values: at least one value is required");

  spec = Spec({"memory.coalescing"});
  AddAxis(&spec, "", "stride", {2, 4, 2});
  EXPECT_EQ(Error(spec), "spec.axes[0].values[2]: duplicate value 2");

  spec = Spec({"reduce"});
  AddAxis(&spec, "", "block_size", {96});
  EXPECT_EQ(Error(spec), "spec.axes[0].values[0]: block_size 96 is not a power of two");
}

TEST(ExpandSpecTest, ValuesAreCheckedAgainstEveryFamilyTheOverrideReaches) {
  // 32 is fine for memory.coalescing but below reduce's minimum block size.
  v1::JobSpec spec = Spec({"memory.coalescing", "reduce"});
  AddAxis(&spec, "", "block_size", {32});
  EXPECT_EQ(Error(spec), "spec.axes[0].values[0]: block_size 32 is outside [64, 1024]");
  spec.mutable_axes(0)->set_family("memory.coalescing");
  EXPECT_EQ(Error(spec), "OK");
}

TEST(ExpandSpecTest, RefusesMoreThanMaxPoints) {
  v1::JobSpec spec = Spec({"occupancy.block_size"});
  EXPECT_EQ(Error(spec, PlanLimits{7}), "OK");
  EXPECT_EQ(Error(spec, PlanLimits{6}), "spec: expands to 7 points, more than max_points 6");
}

TEST(ExpandSpecTest, HugeProductsAreRefusedWithoutOverflow) {
  v1::JobSpec spec = Spec({"memory.coalescing"}, {"strided"});
  std::vector<int64_t> many;
  for (int64_t v = 1024; v < 1024 + 100000; ++v) many.push_back(v);
  AddAxis(&spec, "", "n", many);
  std::vector<int64_t> blocks;
  for (int64_t b = 32; b <= 1024; b += 32) blocks.push_back(b);
  AddAxis(&spec, "", "block_size", blocks);
  std::vector<int64_t> strides;
  for (int64_t s = 1; s <= 32; ++s) strides.push_back(s);
  AddAxis(&spec, "", "stride", strides);
  EXPECT_EQ(Error(spec), "spec: expands to 102400000 points, more than max_points 4096");
}

TEST(ExpandSpecTest, NightlySuiteStaysSmall) {
  StatusOr<std::vector<Point>> points = ExpandSpec(Spec({"*"}), PlanLimits{});
  ASSERT_TRUE(points.ok()) << points.status().ToString();
  // A few minutes per GPU at well under a second per point.
  EXPECT_LE(points->size(), 400u);
  size_t suite_families = 0;
  for (const FamilyInfo& f : Families()) suite_families += !f.test_only && !f.opt_in;
  EXPECT_GE(points->size(), 2 * suite_families);
}

}  // namespace
}  // namespace warpwatch::catalog
