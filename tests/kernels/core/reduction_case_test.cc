// CPU-only tests of kernels/core/reduction_case.h: what MakeReductionCase refuses and what the
// built case reports before Setup (the GPU side runs in reduce's GPU tests).
#include "kernels/core/reduction_case.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>

namespace warpwatch::kernels {
namespace {

ReductionSpec<int, int> CompleteSpec() {
  ReductionSpec<int, int> s;
  s.key = "reduce/cub?n=4";
  s.n = 4;
  s.fill = [](int*, size_t, cudaStream_t) { return OkStatus(); };
  s.run = [](const ReductionArgs<int, int>&, cudaStream_t) { return OkStatus(); };
  s.expected = [] { return 10; };
  s.plan.launches[0].grid = dim3(7);
  s.plan.launches[0].block = dim3(256);
  s.plan.work.bytes = 20;
  return s;
}

TEST(MakeReductionCase, ACompleteSpecGivesACaseReportingItsFirstLaunchAndWork) {
  StatusOr<std::unique_ptr<Case>> made = MakeReductionCase(CompleteSpec());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  EXPECT_EQ((*made)->Shape().grid.x, 7u);
  EXPECT_EQ((*made)->Shape().block.x, 256u);
  EXPECT_EQ((*made)->work().bytes, 20);
  EXPECT_FALSE((*made)->host_synchronous());
}

TEST(MakeReductionCase, ASpecWithoutFillRunOrExpectedIsAnInternalError) {
  ReductionSpec<int, int> s = CompleteSpec();
  s.fill = nullptr;
  EXPECT_EQ(MakeReductionCase(s).status().code(), StatusCode::kInternal);
  s = CompleteSpec();
  s.run = nullptr;
  EXPECT_EQ(MakeReductionCase(s).status().code(), StatusCode::kInternal);
  s = CompleteSpec();
  s.expected = nullptr;
  EXPECT_EQ(MakeReductionCase(s).status().code(), StatusCode::kInternal);
}

TEST(MakeReductionCase, APlanWithoutALaunchIsAnInternalError) {
  ReductionSpec<int, int> s = CompleteSpec();
  s.plan.launches.clear();
  EXPECT_EQ(MakeReductionCase(std::move(s)).status().code(), StatusCode::kInternal);
}

// choose_plan runs first in Setup, before any allocation: its error is Setup's, and the plan it
// would set is not reported before.
TEST(ReductionCase, SetupFailsWithChoosePlansErrorBeforeTouchingTheDevice) {
  ReductionSpec<int, int> s = CompleteSpec();
  s.choose_plan = [](ReductionPlan* plan) {
    plan->launches[0].grid = dim3(99);
    return FailedPreconditionError("no occupancy here");
  };
  StatusOr<std::unique_ptr<Case>> made = MakeReductionCase(std::move(s));
  ASSERT_TRUE(made.ok());
  EXPECT_EQ((*made)->Shape().grid.x, 7u);
  const Status setup = (*made)->Setup(nullptr);
  EXPECT_EQ(setup.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(setup.message(), "no occupancy here");
}

}  // namespace
}  // namespace warpwatch::kernels
