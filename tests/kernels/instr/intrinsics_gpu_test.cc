// GPU (label gpu): every instr.intrinsics variant verifies, and each fast intrinsic's worst error
// (max_error) is above its standard function's where the guide says it trades accuracy.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "common/catalog/catalog.h"
#include "tests/kernels/instr/run_point.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

TEST(InstrIntrinsicsGpu, EveryVariantVerifiesAndFastOnesAreLessAccurate) {
  WW_REQUIRE_CUDA_DEVICE();
  const catalog::FamilyInfo* info = catalog::FindFamily("instr.intrinsics");
  ASSERT_NE(info, nullptr);
  std::map<std::string, double> error;
  for (const catalog::VariantInfo& v : info->variants) {
    for (const auto& size : {std::map<std::string, int64_t>{{"n", 4099}, {"block_size", 96}},
                             std::map<std::string, int64_t>{{"n", 1 << 20}, {"block_size", 256}}}) {
      const catalog::Point point = testing::MakePoint("instr.intrinsics", v.name, size);
      const testing::PointOutcome out = testing::RunPoint(point);
      EXPECT_TRUE(out.ran) << point.Canonical();
      error[v.name] = out.verify.max_error;
    }
    std::printf("%-10s max_error %.3g\n", v.name.c_str(), error[v.name]);
  }
  EXPECT_GT(error["sinf_fast"], error["sinf"]);
  EXPECT_GT(error["expf_fast"], error["expf"]);
  EXPECT_GT(error["fdividef"], error["fdiv"]);
}

}  // namespace
}  // namespace warpwatch::kernels
