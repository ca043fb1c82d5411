// CPU-only: the registered implementations agree with the catalog, and every catalog variant of
// the seven families is implemented (MakeCase resolves variants before any CUDA call).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/catalog/catalog.h"
#include "kernels/core/family.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;
using testing::SevenFamilies;

TEST(KernelRegistry, EveryImplementationNamesACatalogFamily) {
  for (const std::string& name : ImplementedFamilies()) {
    EXPECT_NE(catalog::FindFamily(name), nullptr) << name << " is not in the catalog";
  }
}

TEST(KernelRegistry, TheSevenFamiliesAreImplemented) {
  for (const std::string& name : SevenFamilies()) {
    EXPECT_NE(catalog::FindFamily(name), nullptr) << name << " is missing from the catalog";
    EXPECT_NE(FindImplementation(name), nullptr) << name << " has no implementation";
  }
}

// occupancy.registers asks the CUDA runtime for its kernel's attributes after resolving the
// variant; without a GPU that call fails, which is fine here as long as it is not the variant.
bool MakeCaseNeedsDevice(const std::string& family) { return family == "occupancy.registers"; }

TEST(KernelRegistry, EveryCatalogVariantOfTheSevenFamiliesIsImplemented) {
  const cudaDeviceProp prop = FakeH100Properties();
  for (const std::string& name : SevenFamilies()) {
    const catalog::FamilyInfo* info = catalog::FindFamily(name);
    const Family* family = FindImplementation(name);
    ASSERT_NE(info, nullptr) << name;
    ASSERT_NE(family, nullptr) << name;
    for (const catalog::VariantInfo& v : info->variants) {
      const catalog::Point point = MakePoint(name, v.name);
      StatusOr<std::unique_ptr<Case>> made = family->MakeCase(point, prop);
      if (made.ok()) continue;
      EXPECT_EQ(made.status().message().find("unknown variant"), std::string::npos)
          << point.Canonical() << ": " << made.status().ToString();
      EXPECT_NE(made.status().code(), StatusCode::kInvalidArgument)
          << point.Canonical() << ": " << made.status().ToString();
      EXPECT_TRUE(MakeCaseNeedsDevice(name))
          << point.Canonical() << " (nightly values, H100 limits) was refused: "
          << made.status().ToString();
    }
  }
}

// Issue 8's families implemented so far (each is added here when it is built).
const std::vector<std::string>& IssueEightFamilies() {
  static const auto* names = new std::vector<std::string>{
      "instr.arithmetic",     "instr.intrinsics",      "instr.integer_division",
      "instr.trig_range",     "instr.type_conversion", "instr.syncthreads",
      "matmul",               "transfer.host_device",  "concurrency.streams",
      "dynamic_parallelism",
      "memory.alignment",     "memory.pitch_2d",       "memory.local",
      "memory.constant",      "memory.readonly_cache", "memory.allocation_churn",
      "memory.managed",       "shared.bank_conflicts", "control.divergence",
      "control.unroll",       "occupancy.shared_memory", "latency.ilp",
  };
  return *names;
}

TEST(KernelRegistry, EveryCatalogVariantOfIssueEightsFamiliesIsImplemented) {
  cudaDeviceProp prop = FakeH100Properties();
  prop.canMapHostMemory = 1;  // every H100 can (transfer.host_device's mapped variant asks)
  for (const std::string& name : IssueEightFamilies()) {
    const catalog::FamilyInfo* info = catalog::FindFamily(name);
    const Family* family = FindImplementation(name);
    ASSERT_NE(info, nullptr) << name;
    ASSERT_NE(family, nullptr) << name << " has no implementation";
    EXPECT_FALSE(info->test_only) << name;
    for (const catalog::VariantInfo& v : info->variants) {
      const catalog::Point point = MakePoint(name, v.name);
      StatusOr<std::unique_ptr<Case>> made = family->MakeCase(point, prop);
      EXPECT_TRUE(made.ok()) << point.Canonical() << " (nightly values, H100 limits): "
                             << made.status().ToString();
    }
    StatusOr<std::unique_ptr<Case>> unknown =
        family->MakeCase(MakePoint(name, "no_such_variant"), prop);
    ASSERT_FALSE(unknown.ok()) << name;
    EXPECT_EQ(unknown.status().code(), StatusCode::kInvalidArgument) << name;
  }
}

TEST(KernelRegistry, AnUnknownVariantIsRejectedBeforeAnyCudaCall) {
  const cudaDeviceProp prop = FakeH100Properties();
  for (const std::string& name : SevenFamilies()) {
    const Family* family = FindImplementation(name);
    ASSERT_NE(family, nullptr) << name;
    catalog::Point point = MakePoint(name, "no_such_variant");
    StatusOr<std::unique_ptr<Case>> made = family->MakeCase(point, prop);
    ASSERT_FALSE(made.ok()) << name;
    EXPECT_EQ(made.status().code(), StatusCode::kInvalidArgument) << made.status().ToString();
    EXPECT_NE(made.status().message().find("unknown variant"), std::string::npos)
        << made.status().ToString();
  }
}

TEST(KernelRegistry, TheTestOnlyFaultFamilyIsNotOneOfTheSeven) {
  const auto& seven = SevenFamilies();
  for (const catalog::FamilyInfo& f : catalog::Families()) {
    const bool ours = std::find(seven.begin(), seven.end(), f.name) != seven.end();
    if (f.test_only) {
      EXPECT_FALSE(ours) << f.name << " is test-only but listed as a suite family";
    }
    if (ours) {
      EXPECT_FALSE(f.test_only) << f.name;
    }
  }
  const catalog::FamilyInfo* fault = catalog::FindFamily("testing.fault");
  ASSERT_NE(fault, nullptr);
  EXPECT_TRUE(fault->test_only);
  EXPECT_EQ(std::find(seven.begin(), seven.end(), "testing.fault"), seven.end());
}

}  // namespace
}  // namespace warpwatch::kernels
