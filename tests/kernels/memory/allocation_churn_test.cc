// CPU-only tests of memory.allocation_churn: the reference and which variant is host-synchronous.
#include <gtest/gtest.h>

#include <string>

#include "kernels/core/family.h"
#include "kernels/core/seeded_values.h"
#include "kernels/memory/allocation_churn/allocation_churn_reference.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

TEST(AllocationChurnReference, IsTwiceTheInputPlusTheInput) {
  const auto out = AllocationChurnReference(3, kSeed);
  for (int i = 0; i < 3; ++i) {
    const float x = SeededFloat(kSeed, i);
    EXPECT_EQ(out[i], 2.0f * x + x) << i;
  }
}

TEST(AllocationChurnFamily, OnlyCudaMallocAndFreeWaitForTheHost) {
  const Family* family = FindImplementation("memory.allocation_churn");
  ASSERT_NE(family, nullptr);
  for (const char* variant : {"malloc_free", "malloc_async_pool", "preallocated"}) {
    auto made =
        family->MakeCase(MakePoint("memory.allocation_churn", variant), FakeH100Properties());
    ASSERT_TRUE(made.ok()) << variant << ": " << made.status().ToString();
    EXPECT_EQ((*made)->host_synchronous(), std::string(variant) == "malloc_free") << variant;
  }
}

}  // namespace
}  // namespace warpwatch::kernels
