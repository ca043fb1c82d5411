// CPU-only tests of kernels/core/pitched_case.h: what MakePitchedCase refuses and what the built
// case reports before Setup (the GPU side runs in memory.pitch_2d's GPU tests).
#include "kernels/core/pitched_case.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

namespace warpwatch::kernels {
namespace {

PitchedSpec CompleteSpec() {
  PitchedSpec s;
  s.key = "memory.pitch_2d/pitched?width=3&height=2";
  s.width = 3;
  s.height = 2;
  s.run = [](const PitchedMatrix&, const PitchedMatrix&, cudaStream_t) { return OkStatus(); };
  s.reference = [] { return std::vector<float>(6, 1.0f); };
  s.shape.grid = dim3(1, 2);
  s.shape.block = dim3(128);
  s.work.bytes = 48;
  return s;
}

TEST(MakePitchedCase, ACompleteSpecGivesACaseReportingItsTwoDimensionalShapeAndWork) {
  StatusOr<std::unique_ptr<Case>> made = MakePitchedCase(CompleteSpec());
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  EXPECT_EQ((*made)->Shape().grid.y, 2u);
  EXPECT_EQ((*made)->Shape().block.x, 128u);
  EXPECT_EQ((*made)->work().bytes, 48);
}

TEST(MakePitchedCase, ASpecWithoutRunOrReferenceIsAnInternalError) {
  PitchedSpec s = CompleteSpec();
  s.run = nullptr;
  EXPECT_EQ(MakePitchedCase(s).status().code(), StatusCode::kInternal);
  s = CompleteSpec();
  s.reference = nullptr;
  EXPECT_EQ(MakePitchedCase(s).status().code(), StatusCode::kInternal);
}

TEST(PitchedMatrix, IsEmptyUntilAllocated) {
  PitchedMatrix m;
  EXPECT_EQ(m.get(), nullptr);
  EXPECT_EQ(m.pitch_bytes(), 0u);
  EXPECT_EQ(m.pitch_elements(), 0);
}

}  // namespace
}  // namespace warpwatch::kernels
