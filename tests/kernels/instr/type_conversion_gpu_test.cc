// GPU (label gpu): every instr.type_conversion variant matches its exact CPU reference.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/catalog/catalog.h"
#include "tests/kernels/instr/run_point.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

TEST(InstrTypeConversionGpu, EveryVariantMatchesTheExactCpuReference) {
  WW_REQUIRE_CUDA_DEVICE();
  const catalog::FamilyInfo* info = catalog::FindFamily("instr.type_conversion");
  ASSERT_NE(info, nullptr);
  for (const catalog::VariantInfo& v : info->variants) {
    for (const auto& size : {std::map<std::string, int64_t>{{"n", 4099}, {"block_size", 96}},
                             std::map<std::string, int64_t>{{"n", 1 << 20}, {"block_size", 256}}}) {
      const catalog::Point point = testing::MakePoint("instr.type_conversion", v.name, size);
      const testing::PointOutcome out = testing::RunPoint(point);
      EXPECT_TRUE(out.ran) << point.Canonical();
      EXPECT_EQ(out.verify.max_error, 0) << point.Canonical();
    }
  }
}

}  // namespace
}  // namespace warpwatch::kernels
