// GPU (label `gpu`): every catalog variant of the seven families, through the registry exactly as
// the engine drives it (MakeCase, Setup, Reset, Run, sync, Verify), at small, large and odd sizes
// (n not a multiple of the block size or of the elements per block). Each case runs twice so that
// Reset's restore of in-place inputs and the kernels' self-cleaning counters are verified too.
#include <gtest/gtest.h>

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "common/catalog/catalog.h"
#include "kernels/core/family.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::MakePoint;

struct SizeSet {
  std::string label;
  std::map<std::string, int64_t> values;  // axes not applying to a variant are dropped
};

const std::map<std::string, std::vector<SizeSet>>& Sizes() {
  static const auto* sizes = new std::map<std::string, std::vector<SizeSet>>{
      {"memory.coalescing",
       {{"small", {{"n", 4096}, {"block_size", 256}, {"stride", 2}}},
        {"odd", {{"n", 1000003}, {"block_size", 96}, {"stride", 7}}},
        {"large", {{"n", 1 << 24}, {"block_size", 256}, {"stride", 32}}}}},
      {"memory.vector_width",
       {{"small", {{"n", 4096}, {"block_size", 256}}},
        {"odd", {{"n", 1000001}, {"block_size", 160}}},  // 4n bytes not a multiple of 8 or 16
        {"large", {{"n", 1 << 24}, {"block_size", 1024}}}}},
      {"memory.aos_soa",
       {{"small", {{"n", 4096}, {"block_size", 256}}},
        {"odd", {{"n", 1000003}, {"block_size", 96}}},
        {"large", {{"n", 1 << 24}, {"block_size", 256}}}}},
      {"shared.transpose",
       {{"small", {{"side", 64}, {"block_rows", 32}}},
        {"odd", {{"side", 1000}, {"block_rows", 8}}},  // edge tiles
        {"odd_rows16", {{"side", 999}, {"block_rows", 16}}},
        {"odd_tiny", {{"side", 33}, {"block_rows", 1}}},
        {"odd_rows2", {{"side", 70}, {"block_rows", 2}}},
        {"large", {{"side", 4096}, {"block_rows", 8}}},
        {"large_rows4", {{"side", 4096}, {"block_rows", 4}}}}},
      {"reduce",
       {{"small", {{"n", 4096}, {"block_size", 64}}},
        {"odd", {{"n", 1000003}, {"block_size", 256}}},
        {"odd_short", {{"n", 777}, {"block_size", 512}}},
        {"one", {{"n", 1}, {"block_size", 128}}},
        {"large", {{"n", 1 << 24}, {"block_size", 1024}}}}},
      {"occupancy.block_size",
       {{"small", {{"n", 4096}, {"block_size", 32}}},
        {"odd", {{"n", 1000003}, {"block_size", 96}}},
        {"large", {{"n", 1 << 24}, {"block_size", 1024}}}}},
      {"occupancy.registers",
       {{"small", {{"n", 4096}, {"block_size", 512}}},
        {"odd", {{"n", 1000003}, {"block_size", 96}}},
        {"large", {{"n", 1 << 24}, {"block_size", 256}}}}},
  };
  return *sizes;
}

struct GpuPoint {
  std::string name;  // gtest-safe
  catalog::Point point;
};

// Test names in ctest show the case key instead of the parameter's bytes.
void PrintTo(const GpuPoint& p, std::ostream* os) { *os << p.point.Canonical(); }

std::string SafeName(std::string s) {
  for (char& ch : s) {
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'))) {
      ch = '_';
    }
  }
  return s;
}

std::vector<GpuPoint> AllPoints() {
  std::vector<GpuPoint> points;
  for (const std::string& family : testing::SevenFamilies()) {
    const catalog::FamilyInfo* info = catalog::FindFamily(family);
    if (info == nullptr) continue;  // TheSevenFamiliesAreImplemented reports it
    for (const catalog::VariantInfo& v : info->variants) {
      for (const SizeSet& size : Sizes().at(family)) {
        points.push_back({SafeName(family + "_" + v.name + "_" + size.label),
                          MakePoint(family, v.name, size.values)});
      }
    }
  }
  // The performance targets' sizes for the reductions that are held to them.
  for (const char* variant : {"warp_shuffle", "complete_unroll", "cub"}) {
    points.push_back({SafeName(std::string("reduce_") + variant + "_2pow28"),
                      MakePoint("reduce", variant, {{"n", 1 << 28}, {"block_size", 256}})});
  }
  return points;
}

// Runs `point` as the engine does; every failure names the point.
void RunAndVerify(const catalog::Point& point) {
  const std::string key = point.Canonical();
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  const Family* family = FindImplementation(point.family);
  ASSERT_NE(family, nullptr) << point.family << " not implemented";
  StatusOr<std::unique_ptr<Case>> made = family->MakeCase(point, prop);
  ASSERT_TRUE(made.ok()) << key << ": MakeCase: " << made.status().ToString();
  std::unique_ptr<Case> owned = std::move(made).value();
  Case& c = *owned;
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  const Status setup = c.Setup(stream);
  ASSERT_TRUE(setup.ok()) << key << ": Setup: " << setup.ToString();

  const LaunchShape shape = c.Shape();
  if (shape.function != nullptr) {
    EXPECT_GT(shape.grid.x, 0u) << key;
    EXPECT_GT(shape.block.x * shape.block.y * shape.block.z, 0u) << key;
    EXPECT_LE(static_cast<int>(shape.block.x * shape.block.y * shape.block.z),
              prop.maxThreadsPerBlock)
        << key;
  }
  EXPECT_GT(c.work().bytes, 0) << key;

  for (int round = 1; round <= 2; ++round) {
    Status s = c.Reset(stream);
    ASSERT_TRUE(s.ok()) << key << ": Reset (round " << round << "): " << s.ToString();
    s = c.Run(stream);
    ASSERT_TRUE(s.ok()) << key << ": Run (round " << round << "): " << s.ToString();
    const cudaError_t err = cudaStreamSynchronize(stream);
    ASSERT_EQ(err, cudaSuccess) << key << ": Run (round " << round
                                << "): " << cudaGetErrorString(err);
    const VerifyResult v = c.Verify(stream);
    EXPECT_TRUE(v.status.ok()) << key << ": Verify (round " << round
                               << "): " << v.status.ToString();
  }
  owned.reset();  // free the buffers before the stream
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess) << key;
}

class FamilyGpuTest : public ::testing::TestWithParam<GpuPoint> {};

TEST_P(FamilyGpuTest, VerifiesAgainstTheCpuReference) {
  WW_REQUIRE_CUDA_DEVICE();
  RunAndVerify(GetParam().point);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, FamilyGpuTest, ::testing::ValuesIn(AllPoints()),
                         [](const ::testing::TestParamInfo<GpuPoint>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace warpwatch::kernels
