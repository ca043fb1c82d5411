// Tests of the GPU UUID format.
#include "worker/device/uuid_format.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

TEST(UuidFormat, MatchesNvidiaSmi) {
  const unsigned char bytes[16] = {0x1c, 0x2d, 0x3e, 0x4f, 0x5a, 0x6b, 0x7c, 0x8d,
                                   0x9e, 0xaf, 0x00, 0x11, 0x22, 0x33, 0x44, 0xff};
  EXPECT_EQ(FormatGpuUuid(bytes), "GPU-1c2d3e4f-5a6b-7c8d-9eaf-0011223344ff");
}

}  // namespace
}  // namespace warpwatch::worker
