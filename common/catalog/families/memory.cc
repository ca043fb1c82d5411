// Catalog entries of the memory.* families (guide 5.3.2 device memory accesses, 5.5).
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/counters.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {

FamilyInfo MemoryCoalescing() {
  FamilyInfo f;
  f.name = "memory.coalescing";
  f.guide_section = "5.3.2 global memory";
  f.lesson = "more 32-byte sectors per request, less useful bandwidth";
  f.variants = {
      {"copy", "out[i] = in[i] with i = blockIdx.x*blockDim.x + threadIdx.x: contiguous, the ceiling",
       /*recommended=*/true, /*reference=*/false},
      {"scattered", "i = blockIdx.x + threadIdx.x*gridDim.x: neighbouring threads 1 grid apart",
       false, false},
      {"strided", "thread t copies element t*stride (input of n*stride floats, output of n)", false,
       false},
      {"memcpy", "cudaMemcpyAsync device to device of the same n floats", false,
       /*reference=*/true},
  };
  f.axes = {
      ProblemSizeAxis("float elements copied", {1 << 24, 1 << 26}, 1 << 10, int64_t{1} << 28),
      BlockSizeAxis({256}, {"copy", "scattered", "strided"}),
      Axis("stride", "distance in floats between the elements neighbouring threads read",
           {1, 2, 4, 8, 32}, 1, 32),
  };
  f.axes.back().variants = {"strided"};
  f.counters = {kGlobalLoadEfficiency, kGlobalStoreEfficiency, kGlobalLoadSectors,
                kGlobalLoadRequests, kDramThroughput};
  return f;
}

FamilyInfo MemoryVectorWidth() {
  FamilyInfo f;
  f.name = "memory.vector_width";
  f.guide_section = "5.3.2 size and alignment requirement";
  f.lesson = "wide naturally aligned loads reach peak with fewer instructions";
  f.variants = {
      {"w1", "copy through 1-byte words (char)", false, false},
      {"w2", "copy through 2-byte words (short)", false, false},
      {"w4", "copy through 4-byte words (float)", false, false},
      {"w8", "copy through 8-byte words (float2)", false, false},
      {"w16", "copy through 16-byte words (float4)", /*recommended=*/true, false},
  };
  f.axes = {
      ProblemSizeAxis("float elements copied (4n bytes, the same for every width)",
                      {1 << 24, 1 << 26}, 1 << 10, int64_t{1} << 28),
      BlockSizeAxis({256}),
  };
  f.axes[0].multiple_of = 4;  // 4n bytes divide into 16-byte words
  f.counters = {kDramThroughput, kInstructionsExecuted, kGlobalLoadEfficiency};
  return f;
}

FamilyInfo MemoryAosSoa() {
  FamilyInfo f;
  f.name = "memory.aos_soa";
  f.guide_section = "notes 2.2.3 array of structures vs structure of arrays";
  f.lesson = "SoA coalesces when a kernel touches one field";
  f.variants = {
      {"aos", "array of struct {float x, y, z, w}; the kernel updates x only", false, false},
      {"aos_aligned", "the same struct declared __align__(16)", false, false},
      {"soa", "struct of four float arrays; the kernel updates x only", /*recommended=*/true,
       false},
  };
  f.axes = {
      ProblemSizeAxis("structs (4 floats each)", {1 << 24}, 1 << 10, int64_t{1} << 26),
      BlockSizeAxis({256}),
  };
  f.counters = {kGlobalLoadEfficiency, kGlobalStoreEfficiency, kDramThroughput};
  return f;
}

}  // namespace warpwatch::catalog::detail
