// CPU-only tests of memory.managed: the input and reference, and the nightly points.
#include <gtest/gtest.h>

#include "kernels/core/family.h"
#include "kernels/core/seeded_values.h"
#include "kernels/memory/managed/managed_reference.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

TEST(ManagedReference, DoublesTheSeededInput) {
  const auto input = ManagedInput(4, kSeed);
  const auto out = ManagedReference(input);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(input[i], SeededFloat(kSeed, i));
    EXPECT_EQ(out[i], 2.0f * input[i]);
  }
}

TEST(ManagedFamily, EveryNightlyPointIsAcceptedWithoutTouchingTheDevice) {
  const Family* family = FindImplementation("memory.managed");
  ASSERT_NE(family, nullptr);
  for (const char* variant : {"device", "managed", "managed_advise", "managed_prefetch"}) {
    const auto made = family->MakeCase(MakePoint("memory.managed", variant), FakeH100Properties());
    EXPECT_TRUE(made.ok()) << variant << ": " << made.status().ToString();
  }
}

}  // namespace
}  // namespace warpwatch::kernels
