// CPU-only tests of kernels/core/elementwise_case.h: what MakeElementwiseCase refuses and what
// the built case reports before Setup (the GPU side runs in every migrated family's GPU test).
#include "kernels/core/elementwise_case.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

namespace warpwatch::kernels {
namespace {

ElementwiseSpec<float, float> CompleteSpec() {
  ElementwiseSpec<float, float> s;
  s.key = "memory.coalescing/copy?n=4";
  s.in_count = s.out_count = 4;
  s.run = [](const float*, float*, cudaStream_t) { return OkStatus(); };
  s.reference = [] { return std::vector<float>(4, 1.0f); };
  s.shape.grid = dim3(3);
  s.shape.block = dim3(128);
  s.work.bytes = 32;
  s.work.flops = 4;
  return s;
}

TEST(MakeElementwiseCase, ACompleteSpecGivesACaseReportingItsShapeAndWork) {
  StatusOr<std::unique_ptr<Case>> made = MakeElementwiseCase(CompleteSpec());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  EXPECT_EQ((*made)->Shape().grid.x, 3u);
  EXPECT_EQ((*made)->Shape().block.x, 128u);
  EXPECT_EQ((*made)->work().bytes, 32);
  EXPECT_EQ((*made)->work().flops, 4);
  EXPECT_FALSE((*made)->hot());
  EXPECT_FALSE((*made)->host_synchronous());
}

TEST(MakeElementwiseCase, ASpecWithoutRunIsAnInternalError) {
  ElementwiseSpec<float, float> s = CompleteSpec();
  s.run = nullptr;
  StatusOr<std::unique_ptr<Case>> made = MakeElementwiseCase(std::move(s));
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.status().code(), StatusCode::kInternal);
}

TEST(MakeElementwiseCase, ASpecWithoutAReferenceOrWithHalfASampleIsAnInternalError) {
  ElementwiseSpec<float, float> s = CompleteSpec();
  s.reference = nullptr;
  EXPECT_EQ(MakeElementwiseCase(s).status().code(), StatusCode::kInternal);
  s.sample = [] { return std::vector<int64_t>{0, 3}; };
  EXPECT_EQ(MakeElementwiseCase(s).status().code(), StatusCode::kInternal);
  s.reference_at = [](const std::vector<int64_t>& picked) {
    return std::vector<float>(picked.size(), 1.0f);
  };
  EXPECT_TRUE(MakeElementwiseCase(s).ok());
}

TEST(MakeElementwiseCase, ASpecWithBothRunAndLaunchIsAnInternalError) {
  ElementwiseSpec<float, float> s = CompleteSpec();
  s.launch = [](const ElementwiseArgs<float, float>&, cudaStream_t) { return OkStatus(); };
  EXPECT_EQ(MakeElementwiseCase(s).status().code(), StatusCode::kInternal);
  s.run = nullptr;
  EXPECT_TRUE(MakeElementwiseCase(s).ok());
}

TEST(MakeElementwiseCase, ASpecWithoutInputsIsAnInternalError) {
  ElementwiseSpec<float, float> s = CompleteSpec();
  s.inputs = 0;
  EXPECT_EQ(MakeElementwiseCase(s).status().code(), StatusCode::kInternal);
}

TEST(MakeElementwiseCase, TheCaseIsHostSynchronousWhenTheSpecSaysSo) {
  ElementwiseSpec<float, float> s = CompleteSpec();
  s.host_synchronous = true;
  StatusOr<std::unique_ptr<Case>> made = MakeElementwiseCase(std::move(s));
  ASSERT_TRUE(made.ok());
  EXPECT_TRUE((*made)->host_synchronous());
}

// Without clear_output_each_run, Reset touches nothing (no CUDA call: it succeeds here, with no
// device and no buffers); the clearing form needs the device and is exercised by the GPU tests.
TEST(ElementwiseCase, ResetDoesNothingUnlessTheSpecClearsTheOutputEachRun) {
  StatusOr<std::unique_ptr<Case>> made = MakeElementwiseCase(CompleteSpec());
  ASSERT_TRUE(made.ok());
  EXPECT_TRUE((*made)->Reset(nullptr).ok());
}

}  // namespace
}  // namespace warpwatch::kernels
