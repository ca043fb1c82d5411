// GPU (label gpu): sinf verifies on arguments inside and outside the fast range reduction.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/catalog/catalog.h"
#include "tests/kernels/instr/run_point.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

TEST(InstrTrigRangeGpu, BothRangesVerify) {
  WW_REQUIRE_CUDA_DEVICE();
  for (const char* variant : {"small_args", "large_args"}) {
    for (const auto& size : {std::map<std::string, int64_t>{{"n", 4099}, {"block_size", 96}},
                             std::map<std::string, int64_t>{{"n", 1 << 20}, {"block_size", 256}}}) {
      const catalog::Point point = testing::MakePoint("instr.trig_range", variant, size);
      const testing::PointOutcome out = testing::RunPoint(point);
      EXPECT_TRUE(out.ran) << point.Canonical();
    }
  }
}

}  // namespace
}  // namespace warpwatch::kernels
