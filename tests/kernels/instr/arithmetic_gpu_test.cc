// GPU (label gpu): every instr.arithmetic variant matches its exact CPU reference at small, odd
// and large thread counts.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/catalog/catalog.h"
#include "tests/kernels/instr/run_point.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

TEST(InstrArithmeticGpu, EveryVariantMatchesTheExactCpuReference) {
  WW_REQUIRE_CUDA_DEVICE();
  const catalog::FamilyInfo* info = catalog::FindFamily("instr.arithmetic");
  ASSERT_NE(info, nullptr);
  const std::map<std::string, int64_t> sizes[] = {
      {{"n", 4096}, {"block_size", 256}},
      {{"n", 1000003}, {"block_size", 96}},
      {{"n", 1 << 22}, {"block_size", 1024}},
  };
  for (const catalog::VariantInfo& v : info->variants) {
    for (const auto& size : sizes) {
      const catalog::Point point = testing::MakePoint("instr.arithmetic", v.name, size);
      const testing::PointOutcome out = testing::RunPoint(point);
      EXPECT_TRUE(out.ran) << point.Canonical() << " " << out.reason;
      EXPECT_EQ(out.verify.max_error, 0) << point.Canonical();
    }
  }
}

}  // namespace
}  // namespace warpwatch::kernels
