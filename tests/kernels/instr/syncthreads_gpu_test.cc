// GPU (label gpu): the barrier loops match their exact CPU reference at several block sizes,
// including a partial last block and a thread whose partner lies beyond n.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/catalog/catalog.h"
#include "tests/kernels/instr/run_point.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

TEST(InstrSyncthreadsGpu, EveryVariantMatchesTheExactCpuReference) {
  WW_REQUIRE_CUDA_DEVICE();
  const catalog::FamilyInfo* info = catalog::FindFamily("instr.syncthreads");
  ASSERT_NE(info, nullptr);
  for (const catalog::VariantInfo& v : info->variants) {
    for (const auto& size : {std::map<std::string, int64_t>{{"n", 4099}, {"block_size", 64}},
                             std::map<std::string, int64_t>{{"n", 1 << 20}, {"block_size", 128}},
                             std::map<std::string, int64_t>{{"n", 100001}, {"block_size", 1024}}}) {
      const catalog::Point point = testing::MakePoint("instr.syncthreads", v.name, size);
      const testing::PointOutcome out = testing::RunPoint(point);
      EXPECT_TRUE(out.ran) << point.Canonical();
      EXPECT_EQ(out.verify.max_error, 0) << point.Canonical();
    }
  }
}

}  // namespace
}  // namespace warpwatch::kernels
