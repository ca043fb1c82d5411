// GPU (label gpu): every transfer.host_device variant lands the exact bytes in device memory,
// including a size that is not a multiple of the small copies' chunk.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/catalog/catalog.h"
#include "tests/kernels/instr/run_point.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

TEST(TransferHostDeviceGpu, EveryVariantDeliversTheExactBytes) {
  WW_REQUIRE_CUDA_DEVICE();
  const catalog::FamilyInfo* info = catalog::FindFamily("transfer.host_device");
  ASSERT_NE(info, nullptr);
  for (const catalog::VariantInfo& v : info->variants) {
    for (const auto& size :
         {std::map<std::string, int64_t>{{"bytes", 1024}, {"chunk_bytes", 256}},
          std::map<std::string, int64_t>{{"bytes", 5 * 1024 * 1024 + 1024}, {"chunk_bytes", 4096}},
          std::map<std::string, int64_t>{{"bytes", 1 << 26}, {"chunk_bytes", 1 << 20}}}) {
      const catalog::Point point = testing::MakePoint("transfer.host_device", v.name, size);
      const testing::PointOutcome out = testing::RunPoint(point);
      EXPECT_TRUE(out.ran) << point.Canonical() << " " << out.reason;
    }
  }
}

}  // namespace
}  // namespace warpwatch::kernels
