// GPU (label gpu): the flat and the device-launched nested reductions give the exact sum, for
// partial last blocks, the smallest block and many blocks (thousands of device launches).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/catalog/catalog.h"
#include "tests/kernels/instr/run_point.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

TEST(DynamicParallelismGpu, EveryVariantGivesTheExactSum) {
  WW_REQUIRE_CUDA_DEVICE();
  const catalog::FamilyInfo* info = catalog::FindFamily("dynamic_parallelism");
  ASSERT_NE(info, nullptr);
  for (const catalog::VariantInfo& v : info->variants) {
    for (const auto& size :
         {std::map<std::string, int64_t>{{"n", 4099}, {"block_size", 64}},
          std::map<std::string, int64_t>{{"n", 1 << 20}, {"block_size", 512}},
          std::map<std::string, int64_t>{{"n", 3000017}, {"block_size", 1024}}}) {
      const catalog::Point point = testing::MakePoint("dynamic_parallelism", v.name, size);
      const testing::PointOutcome out = testing::RunPoint(point);
      EXPECT_TRUE(out.ran) << point.Canonical() << " " << out.reason;
      EXPECT_EQ(out.verify.max_error, 0) << point.Canonical();
    }
  }
}

}  // namespace
}  // namespace warpwatch::kernels
