// GPU (label gpu): serial and streamed pipelines and small kernels give the exact CPU results,
// with chunk counts that do not divide n.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/catalog/catalog.h"
#include "tests/kernels/instr/run_point.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

TEST(ConcurrencyStreamsGpu, EveryVariantMatchesTheExactCpuReference) {
  WW_REQUIRE_CUDA_DEVICE();
  const catalog::FamilyInfo* info = catalog::FindFamily("concurrency.streams");
  ASSERT_NE(info, nullptr);
  for (const catalog::VariantInfo& v : info->variants) {
    for (const auto& size :
         {std::map<std::string, int64_t>{{"n", 1027}, {"block_size", 128}, {"streams", 3}},
          std::map<std::string, int64_t>{{"n", 1000003}, {"block_size", 256}, {"streams", 7}},
          std::map<std::string, int64_t>{{"n", 1 << 24}, {"block_size", 256}, {"streams", 4}}}) {
      const catalog::Point point = testing::MakePoint("concurrency.streams", v.name, size);
      const testing::PointOutcome out = testing::RunPoint(point);
      EXPECT_TRUE(out.ran) << point.Canonical() << " " << out.reason;
      EXPECT_EQ(out.verify.max_error, 0) << point.Canonical();
    }
  }
}

}  // namespace
}  // namespace warpwatch::kernels
