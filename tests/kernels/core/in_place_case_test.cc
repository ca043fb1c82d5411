// CPU-only tests of kernels/core/in_place_case.h: what MakeInPlaceCase refuses and what the built
// case reports before Setup (the GPU side runs in memory.aos_soa's GPU tests).
#include "kernels/core/in_place_case.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

namespace warpwatch::kernels {
namespace {

InPlaceSpec<float> CompleteSpec() {
  InPlaceSpec<float> s;
  s.key = "memory.aos_soa/soa?n=4";
  s.count = 16;
  s.fill = [](float*, size_t, cudaStream_t) { return OkStatus(); };
  s.run = [](float*, cudaStream_t) { return OkStatus(); };
  s.reference = [] { return std::vector<float>(16, 1.0f); };
  s.shape.grid = dim3(2);
  s.shape.block = dim3(64);
  s.work.bytes = 32;
  return s;
}

TEST(MakeInPlaceCase, ACompleteSpecGivesACaseReportingItsShapeAndWork) {
  StatusOr<std::unique_ptr<Case>> made = MakeInPlaceCase(CompleteSpec());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  EXPECT_EQ((*made)->Shape().grid.x, 2u);
  EXPECT_EQ((*made)->Shape().block.x, 64u);
  EXPECT_EQ((*made)->work().bytes, 32);
}

TEST(MakeInPlaceCase, ASpecWithoutFillRunOrAReferenceIsAnInternalError) {
  InPlaceSpec<float> s = CompleteSpec();
  s.fill = nullptr;
  EXPECT_EQ(MakeInPlaceCase(s).status().code(), StatusCode::kInternal);
  s = CompleteSpec();
  s.run = nullptr;
  EXPECT_EQ(MakeInPlaceCase(s).status().code(), StatusCode::kInternal);
  s = CompleteSpec();
  s.reference = nullptr;
  s.sample = [] { return std::vector<int64_t>{0}; };
  EXPECT_EQ(MakeInPlaceCase(s).status().code(), StatusCode::kInternal);
  s.reference_at = [](const std::vector<int64_t>& picked) {
    return std::vector<float>(picked.size(), 1.0f);
  };
  EXPECT_TRUE(MakeInPlaceCase(s).ok());
}

// Reset restores with `restore` when the spec has one, else refills with `fill`.
TEST(InPlaceCase, ResetRestoresWithRestoreElseWithFill) {
  int fills = 0;
  int restores = 0;
  InPlaceSpec<float> s = CompleteSpec();
  s.fill = [&fills](float*, size_t, cudaStream_t) {
    ++fills;
    return OkStatus();
  };
  StatusOr<std::unique_ptr<Case>> refilled = MakeInPlaceCase(s);
  ASSERT_TRUE(refilled.ok());
  EXPECT_TRUE((*refilled)->Reset(nullptr).ok());
  EXPECT_EQ(fills, 1);
  s.restore = [&restores](float*, size_t, cudaStream_t) {
    ++restores;
    return OkStatus();
  };
  StatusOr<std::unique_ptr<Case>> restored = MakeInPlaceCase(s);
  ASSERT_TRUE(restored.ok());
  EXPECT_TRUE((*restored)->Reset(nullptr).ok());
  EXPECT_EQ(restores, 1);
  EXPECT_EQ(fills, 1);
}

}  // namespace
}  // namespace warpwatch::kernels
