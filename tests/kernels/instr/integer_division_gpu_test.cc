// GPU (label gpu): division/remainder and shift/mask give the exact CPU result for several
// power-of-two divisors.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/kernels/instr/run_point.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

TEST(InstrIntegerDivisionGpu, BothVariantsMatchTheExactCpuReference) {
  WW_REQUIRE_CUDA_DEVICE();
  for (const char* variant : {"div_mod", "shift_mask"}) {
    for (int64_t divisor : {int64_t{2}, int64_t{32}, int64_t{1} << 20}) {
      for (const auto& size :
           {std::map<std::string, int64_t>{{"n", 4099}, {"block_size", 96}},
            std::map<std::string, int64_t>{{"n", 1 << 20}, {"block_size", 256}}}) {
        auto values = size;
        values["divisor"] = divisor;
        const catalog::Point point = testing::MakePoint("instr.integer_division", variant, values);
        const testing::PointOutcome out = testing::RunPoint(point);
        EXPECT_TRUE(out.ran) << point.Canonical();
        EXPECT_EQ(out.verify.max_error, 0) << point.Canonical();
      }
    }
  }
}

}  // namespace
}  // namespace warpwatch::kernels
