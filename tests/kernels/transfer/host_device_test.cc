// CPU: transfer.host_device's reference bytes and its host-memory bound.
#include <gtest/gtest.h>

#include "kernels/core/seeded_values.h"
#include "kernels/transfer/host_device/host_device_reference.h"

namespace warpwatch::kernels {
namespace {

TEST(HostDeviceReference, IsTheSeededBytesAndNeverZero) {
  const std::vector<uint8_t> bytes = HostDeviceReference(4096, kSeed);
  ASSERT_EQ(bytes.size(), 4096u);
  for (size_t i = 0; i < bytes.size(); ++i) {
    EXPECT_EQ(bytes[i], SeededByte(kSeed, i));
    EXPECT_NE(bytes[i], 0);
  }
}

TEST(HostDeviceReference, HostMemoryIsBoundedByAnEighthOfRamAndTwoGiB) {
  EXPECT_EQ(MaxHostTransferBytes(size_t{8} << 30), size_t{1} << 30);
  EXPECT_EQ(MaxHostTransferBytes(size_t{1} << 40), size_t{2} << 30);
  EXPECT_EQ(MaxHostTransferBytes(0), 0u);
}

}  // namespace
}  // namespace warpwatch::kernels
