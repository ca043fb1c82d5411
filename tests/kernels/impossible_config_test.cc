// CPU-only: points that cannot run on the device are FAILED_PRECONDITION (recorded SKIPPED by the
// engine) with the reason, decided in MakeCase from cudaDeviceProp alone.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "kernels/core/family.h"
#include "tests/kernels/kernel_test_support.h"

namespace warpwatch::kernels {
namespace {

using testing::FakeH100Properties;
using testing::MakePoint;

Status MakeStatus(const catalog::Point& point, const cudaDeviceProp& prop) {
  const Family* family = FindImplementation(point.family);
  if (family == nullptr) return NotFoundError(point.family + " not implemented");
  StatusOr<std::unique_ptr<Case>> made = family->MakeCase(point, prop);
  return made.ok() ? OkStatus() : made.status();
}

void ExpectSkipped(const catalog::Point& point, const cudaDeviceProp& prop,
                   const std::string& reason_part) {
  const Status s = MakeStatus(point, prop);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition) << point.Canonical() << ": " << s.ToString();
  EXPECT_NE(s.message().find(reason_part), std::string::npos)
      << point.Canonical() << ": reason \"" << s.message() << "\" lacks \"" << reason_part << "\"";
}

TEST(ImpossibleConfig, BlockAboveTheDeviceMaximumIsSkipped) {
  const cudaDeviceProp prop = FakeH100Properties();
  ExpectSkipped(MakePoint("memory.coalescing", "copy", {{"block_size", 2048}}), prop,
                "exceeds the device maximum");
  ExpectSkipped(MakePoint("memory.vector_width", "w16", {{"block_size", 2048}}), prop,
                "exceeds the device maximum");
  ExpectSkipped(MakePoint("memory.aos_soa", "soa", {{"block_size", 2048}}), prop,
                "exceeds the device maximum");
  ExpectSkipped(MakePoint("reduce", "warp_shuffle", {{"block_size", 2048}}), prop,
                "exceeds the device maximum");
  ExpectSkipped(MakePoint("occupancy.block_size", "fixed", {{"block_size", 2048}}), prop,
                "exceeds the device maximum");
}

TEST(ImpossibleConfig, ASmallerDeviceSkipsBlocksAnH100Runs) {
  cudaDeviceProp prop = FakeH100Properties();
  prop.maxThreadsPerBlock = 512;
  ExpectSkipped(MakePoint("memory.coalescing", "scattered", {{"block_size", 1024}}), prop,
                "exceeds the device maximum of 512");
  ExpectSkipped(MakePoint("shared.transpose", "naive", {{"block_rows", 32}}), prop,
                "exceeds the device maximum of 512");
  EXPECT_TRUE(MakeStatus(MakePoint("shared.transpose", "naive", {{"block_rows", 16}}), prop).ok());
}

TEST(ImpossibleConfig, TransposeRowsOutsideTheTileAreSkipped) {
  ExpectSkipped(MakePoint("shared.transpose", "shared_tile_padded", {{"block_rows", 64}}),
                FakeH100Properties(), "within the 32-row tile");
  ExpectSkipped(MakePoint("shared.transpose", "copy", {{"block_rows", 12}}), FakeH100Properties(),
                "must be a power of two");
}

TEST(ImpossibleConfig, BuffersLargerThanDeviceMemoryAreSkipped) {
  cudaDeviceProp prop = FakeH100Properties();
  prop.totalGlobalMem = size_t{1} << 30;  // 1 GiB device
  // 2^26 floats read at stride 32: an 8 GiB input.
  ExpectSkipped(MakePoint("memory.coalescing", "strided", {{"n", 1 << 26}, {"stride", 32}}), prop,
                "exceed 90% of the device");
  ExpectSkipped(MakePoint("reduce", "cub", {{"n", 1 << 28}}), prop, "exceed 90% of the device");
  ExpectSkipped(MakePoint("shared.transpose", "copy", {{"side", 16384}}), prop,
                "exceed 90% of the device");
}

TEST(ImpossibleConfig, ReductionsWhoseSumCannotFitAnIntAreSkipped) {
  ExpectSkipped(MakePoint("reduce", "neighbored", {{"n", int64_t{1} << 32}}),
                FakeH100Properties(), "fits in an int");
}

TEST(ImpossibleConfig, BlocksAboveTheLaunchBoundsAreSkipped) {
  ExpectSkipped(MakePoint("occupancy.registers", "launch_bounds_512_2", {{"block_size", 1024}}),
                FakeH100Properties(), "__launch_bounds__ of 512");
}

}  // namespace
}  // namespace warpwatch::kernels
