// GPU (label gpu): naive, tiled (every tile) and cuBLAS give the exact product; cuBLAS is loaded
// at run time and its points are skipped, saying why, where the library is absent.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "tests/kernels/instr/run_point.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

TEST(MatmulGpu, EveryVariantGivesTheExactProduct) {
  WW_REQUIRE_CUDA_DEVICE();
  for (int64_t side : {int64_t{64}, int64_t{96}, int64_t{1024}}) {
    for (const char* variant : {"naive", "cublas"}) {
      const catalog::Point point = testing::MakePoint("matmul", variant, {{"side", side}});
      const testing::PointOutcome out = testing::RunPoint(point);
      if (out.skipped) {
        std::printf("%s skipped: %s\n", point.Canonical().c_str(), out.reason.c_str());
        EXPECT_EQ(std::string(variant), "cublas") << out.reason;
        continue;
      }
      EXPECT_TRUE(out.ran) << point.Canonical();
    }
    for (int64_t tile : {int64_t{8}, int64_t{16}, int64_t{32}}) {
      const catalog::Point point =
          testing::MakePoint("matmul", "shared_tiled", {{"side", side}, {"tile", tile}});
      const testing::PointOutcome out = testing::RunPoint(point);
      EXPECT_TRUE(out.ran) << point.Canonical() << " " << out.reason;
    }
  }
}

}  // namespace
}  // namespace warpwatch::kernels
