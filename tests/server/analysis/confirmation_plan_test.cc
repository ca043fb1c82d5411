// The confirmation job's spec and the verdict of a confirmation run (no database).
#include "server/analysis/confirmation_plan.h"

#include <gtest/gtest.h>

#include <vector>

namespace warpwatch::server::analysis {
namespace {

#define ASSERT_OK_AND_ASSIGN_PLAN(expr, expected)               \
  do {                                                          \
    const StatusOr<int64_t> _planned = (expr);                  \
    ASSERT_TRUE(_planned.ok()) << _planned.status().ToString(); \
    EXPECT_EQ(*_planned, (expected));                           \
  } while (0)

RunCase ConfirmationPlanCase(const std::string& family, const std::string& variant,
                             std::map<std::string, int64_t> params, double median = 1e-4) {
  RunCase c;
  c.family = family;
  c.variant = variant;
  c.params = std::move(params);
  c.case_canonical = family + "/" + variant;
  c.series_id = c.case_canonical + "@H100";
  c.point.ok = true;
  c.point.verified = true;
  c.point.median_seconds = median;
  c.point.device_uuid = "GPU-a";
  return c;
}

std::vector<detect::RunPoint> Baseline(double median, int n = 10) {
  std::vector<detect::RunPoint> out;
  for (int i = 0; i < n; ++i) {
    detect::RunPoint p;
    p.run_id = i + 1;
    p.device_uuid = "GPU-a";
    p.ok = p.verified = true;
    p.median_seconds = median * (1 + 0.001 * ((i % 3) - 1));
    out.push_back(p);
  }
  return out;
}

TEST(ConfirmationSpecTest, KeepsOnlyTheSuspectCasesOnTheirDevice) {
  v1::JobSpec original;
  original.add_families("memory.*");
  original.add_families("reduce");
  original.add_variants("*");
  v1::AxisOverride* o = original.add_axes();
  o->set_family("memory.*");
  o->set_axis("n");
  o->add_values(1 << 20);
  original.mutable_selector()->set_gpu_model("*H100*");
  (*original.mutable_selector()->mutable_worker_labels())["pool"] = "nightly";
  original.mutable_measurement()->set_max_samples(1000);
  (*original.mutable_labels())["git_sha"] = "abc";
  original.set_priority(7);
  original.set_max_attempts(2);
  original.set_timeout_seconds(600);

  const std::vector<RunCase> suspects = {
      ConfirmationPlanCase("memory.coalescing", "copy", {{"block_size", 256}, {"n", 16777216}}),
      ConfirmationPlanCase("memory.coalescing", "copy", {{"block_size", 256}, {"n", 67108864}}),
      ConfirmationPlanCase("reduce", "cub", {{"n", 16777216}}),
  };
  const v1::JobSpec spec = ConfirmationSpec(original, suspects, "GPU-a", 42);
  ASSERT_EQ(spec.families_size(), 2);
  EXPECT_EQ(spec.families(0), "memory.coalescing");
  EXPECT_EQ(spec.families(1), "reduce");
  ASSERT_EQ(spec.variants_size(), 2);
  EXPECT_EQ(spec.variants(0), "memory.coalescing/copy");
  EXPECT_EQ(spec.variants(1), "reduce/cub");
  ASSERT_EQ(spec.axes_size(), 3);
  EXPECT_EQ(spec.axes(0).family(), "memory.coalescing");
  EXPECT_EQ(spec.axes(0).axis(), "block_size");
  ASSERT_EQ(spec.axes(0).values_size(), 1);
  EXPECT_EQ(spec.axes(1).axis(), "n");
  ASSERT_EQ(spec.axes(1).values_size(), 2);
  EXPECT_EQ(spec.axes(1).values(0), 16777216);
  EXPECT_EQ(spec.axes(1).values(1), 67108864);
  EXPECT_EQ(spec.axes(2).family(), "reduce");
  EXPECT_EQ(spec.axes(2).values(0), 16777216);
  EXPECT_EQ(spec.selector().gpu_uuid(), "GPU-a");
  EXPECT_EQ(spec.selector().gpu_model(), "");
  EXPECT_TRUE(spec.selector().worker_labels().empty());
  EXPECT_EQ(spec.measurement().max_samples(), 1000);
  EXPECT_EQ(spec.labels().at("git_sha"), "abc");
  EXPECT_EQ(spec.labels().at(kConfirmsRunLabel), "42");
  EXPECT_EQ(spec.priority(), 7);
  EXPECT_EQ(spec.max_attempts(), 2);
  EXPECT_DOUBLE_EQ(spec.timeout_seconds(), 600);
  // The worker's plan of it is exactly the three suspects (the catalog's own expansion).
  ASSERT_OK_AND_ASSIGN_PLAN(PlannedPoints(spec), 3);
}

TEST(ConfirmationSpecTest, ASpecTheCatalogRefusesCannotBePlanned) {
  const std::vector<RunCase> suspects = {
      ConfirmationPlanCase("memory.no_such_family", "copy", {{"n", 1}})};
  const StatusOr<int64_t> planned =
      PlannedPoints(ConfirmationSpec(v1::JobSpec(), suspects, "GPU-a", 1));
  EXPECT_EQ(planned.status().code(), StatusCode::kInvalidArgument);
}

Suspect SuspectOf(const std::string& kind) {
  Suspect s;
  s.regression_id = 1;
  s.kind = kind;
  s.case_canonical = "memory.coalescing/copy";
  return s;
}

TEST(ResolveWithConfirmationTest, TheSameVerdictAgainOpensTheRegression) {
  const RunCase again = ConfirmationPlanCase("memory.coalescing", "copy", {}, 1.05e-4);
  const SuspectResolution r =
      ResolveWithConfirmation(SuspectOf(kKindRegression), &again, Baseline(1e-4), {});
  EXPECT_EQ(r.state, kStateOpen);
  EXPECT_NE(r.note.find("confirmed"), std::string::npos);
  EXPECT_EQ(r.note.find("not confirmed"), std::string::npos);
}

TEST(ResolveWithConfirmationTest, BackAtTheBaselineIsNoise) {
  const RunCase back = ConfirmationPlanCase("memory.coalescing", "copy", {}, 1.0002e-4);
  const SuspectResolution r =
      ResolveWithConfirmation(SuspectOf(kKindRegression), &back, Baseline(1e-4), {});
  EXPECT_EQ(r.state, kStateNoise);
  EXPECT_NE(r.note.find("not confirmed"), std::string::npos);
  EXPECT_NE(r.note.find("SAME"), std::string::npos);
}

TEST(ResolveWithConfirmationTest, TheOppositeVerdictIsNoise) {
  const RunCase faster = ConfirmationPlanCase("memory.coalescing", "copy", {}, 0.95e-4);
  EXPECT_EQ(ResolveWithConfirmation(SuspectOf(kKindRegression), &faster, Baseline(1e-4), {}).state,
            kStateNoise);
}

TEST(ResolveWithConfirmationTest, AnImprovementIsConfirmedByAFasterRun) {
  const RunCase faster = ConfirmationPlanCase("memory.coalescing", "copy", {}, 0.95e-4);
  EXPECT_EQ(ResolveWithConfirmation(SuspectOf(kKindImprovement), &faster, Baseline(1e-4), {}).state,
            kStateOpen);
}

TEST(ResolveWithConfirmationTest, AConfirmationThatCannotBeJudgedOpensUnconfirmed) {
  RunCase throttled = ConfirmationPlanCase("memory.coalescing", "copy", {}, 1.0e-4);
  throttled.point.throttled_fraction = 0.5;
  const SuspectResolution r =
      ResolveWithConfirmation(SuspectOf(kKindRegression), &throttled, Baseline(1e-4), {});
  EXPECT_EQ(r.state, kStateOpen);
  EXPECT_NE(r.note.find("unconfirmed"), std::string::npos);
  const SuspectResolution missing =
      ResolveWithConfirmation(SuspectOf(kKindRegression), nullptr, Baseline(1e-4), {});
  EXPECT_EQ(missing.state, kStateOpen);
  EXPECT_NE(missing.note.find("did not measure"), std::string::npos);
}

}  // namespace
}  // namespace warpwatch::server::analysis
