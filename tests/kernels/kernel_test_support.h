// Helpers shared by the kernels/ tests: the seven families this suite implements, catalog points
// built from axis values, a synthetic H100 for CUDA-free MakeCase checks, and the GPU guard.
#ifndef WARPWATCH_TESTS_KERNELS_KERNEL_TEST_SUPPORT_H_
#define WARPWATCH_TESTS_KERNELS_KERNEL_TEST_SUPPORT_H_

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "common/catalog/catalog.h"
#include "common/catalog/plan.h"

namespace warpwatch::kernels::testing {

// The families of issue 3 implemented in kernels/ (testing.fault belongs to the engine's tests).
inline const std::vector<std::string>& SevenFamilies() {
  static const auto* names = new std::vector<std::string>{
      "memory.coalescing",   "memory.vector_width",  "memory.aos_soa",     "shared.transpose",
      "reduce",              "occupancy.block_size", "occupancy.registers",
  };
  return *names;
}

// The point of `family`/`variant` with the given axis values, keeping only the axes that apply
// to the variant (as ExpandSpec does); axes not given take their first nightly value.
inline catalog::Point MakePoint(const std::string& family, const std::string& variant,
                                const std::map<std::string, int64_t>& values = {}) {
  catalog::Point p;
  p.family = family;
  p.variant = variant;
  const catalog::FamilyInfo* info = catalog::FindFamily(family);
  if (info == nullptr) return p;
  for (const catalog::AxisInfo& axis : info->axes) {
    if (!axis.AppliesTo(variant)) continue;
    auto it = values.find(axis.name);
    p.params[axis.name] = it != values.end() ? it->second : axis.nightly.at(0);
  }
  return p;
}

// A cudaDeviceProp with an H100 SXM's limits, for MakeCase checks on machines without a GPU.
inline cudaDeviceProp FakeH100Properties() {
  cudaDeviceProp prop{};
  std::snprintf(prop.name, sizeof(prop.name), "fake NVIDIA H100 80GB HBM3");
  prop.major = 9;
  prop.minor = 0;
  prop.multiProcessorCount = 132;
  prop.maxThreadsPerBlock = 1024;
  prop.maxThreadsDim[0] = 1024;
  prop.maxThreadsDim[1] = 1024;
  prop.maxThreadsDim[2] = 64;
  prop.maxGridSize[0] = 2147483647;
  prop.maxGridSize[1] = 65535;
  prop.maxGridSize[2] = 65535;
  prop.maxThreadsPerMultiProcessor = 2048;
  prop.maxBlocksPerMultiProcessor = 32;
  prop.regsPerBlock = 65536;
  prop.regsPerMultiprocessor = 65536;
  prop.sharedMemPerBlock = 48 * 1024;
  prop.sharedMemPerBlockOptin = 227 * 1024;
  prop.sharedMemPerMultiprocessor = 228 * 1024;
  prop.warpSize = 32;
  prop.totalGlobalMem = size_t{80} << 30;
  prop.l2CacheSize = 50 << 20;
  return prop;
}

// True when a CUDA device is usable.
inline bool HaveCudaDevice() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

}  // namespace warpwatch::kernels::testing

// First statement of every GPU test.
#define WW_REQUIRE_CUDA_DEVICE()                                       \
  do {                                                                 \
    if (!::warpwatch::kernels::testing::HaveCudaDevice()) {            \
      std::printf("skipped: no CUDA device\n");                        \
      GTEST_SKIP() << "skipped: no CUDA device";                       \
    }                                                                  \
  } while (0)

#endif  // WARPWATCH_TESTS_KERNELS_KERNEL_TEST_SUPPORT_H_
