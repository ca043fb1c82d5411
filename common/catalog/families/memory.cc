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

FamilyInfo MemoryAlignment() {
  FamilyInfo f;
  f.name = "memory.alignment";
  f.guide_section = "5.3.2 size and alignment requirement";
  f.lesson = "misaligned starts cost extra transactions";
  f.variants = {
      {"aligned", "copy of n floats starting at offset 0 (32-byte aligned)", /*recommended=*/true,
       false},
      {"misaligned", "the same copy reading from element `offset` on", false, false},
  };
  f.axes = {
      ProblemSizeAxis("float elements copied", {1 << 24}, 1 << 10, int64_t{1} << 28),
      BlockSizeAxis({256}),
      // 1 float: warps straddle 32-byte sectors; 16 floats (64 bytes): sector-aligned but not on a
      // 128-byte line (32 is aligned again, as the guide's figure shows, so not in the nightly).
      Axis("offset", "elements the read start is shifted by", {1, 16}, 1, 32),
  };
  f.axes.back().variants = {"misaligned"};
  f.counters = {kGlobalLoadEfficiency, kGlobalLoadSectors, kGlobalLoadRequests, kDramThroughput};
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

FamilyInfo MemoryPitch2d() {
  FamilyInfo f;
  f.name = "memory.pitch_2d";
  f.guide_section = "5.3.2 two-dimensional arrays";
  f.lesson = "padded rows keep warps on aligned segments";
  f.variants = {
      {"packed", "width x height floats stored with row stride = width (rows start misaligned)",
       false, false},
      {"pitched", "rows allocated with cudaMallocPitch (row stride = pitch)", /*recommended=*/true,
       false},
  };
  AxisInfo width = Axis("width", "row length in float elements (not a multiple of 32 to show it)",
                        {4001}, 1, 1 << 16);
  AxisInfo height = Axis("height", "rows", {4096}, 1, 1 << 16);
  f.axes = {width, height, BlockSizeAxis({256})};
  f.counters = {kGlobalLoadEfficiency, kGlobalStoreEfficiency, kGlobalLoadSectors,
                kGlobalLoadRequests, kDramThroughput};
  return f;
}

FamilyInfo MemoryLocal() {
  FamilyInfo f;
  f.name = "memory.local";
  f.guide_section = "5.3.2 local memory";
  f.lesson = "spilled arrays live in device memory";
  f.variants = {
      {"dynamic_index", "per-thread array indexed with a run-time index: placed in local memory",
       false, false},
      {"unrolled_registers", "the same computation with compile-time indices: kept in registers",
       /*recommended=*/true, false},
  };
  AxisInfo size = Axis("array_size", "floats in each thread's private array", {32}, 4, 64);
  size.power_of_two = true;  // one kernel instantiation per size
  f.axes = {
      ProblemSizeAxis("threads' output floats", {1 << 22}, 1 << 10, int64_t{1} << 26),
      BlockSizeAxis({256}),
      size,
  };
  f.counters = {kLocalLoadSectors, kLocalStoreSectors, kDramThroughput};
  return f;
}

FamilyInfo MemoryConstant() {
  FamilyInfo f;
  f.name = "memory.constant";
  f.guide_section = "5.3.2 constant memory";
  f.lesson = "constant cache broadcasts one address, serialises many";
  f.variants = {
      {"constant_uniform", "every thread of a warp reads the same __constant__ word",
       /*recommended=*/true, false},
      {"constant_divergent", "each thread reads a different __constant__ word (serialised)", false,
       false},
      {"global_divergent", "each thread reads a different word of the same table in global memory",
       false, false},
  };
  f.axes = {
      ProblemSizeAxis("output floats (each from a loop of table reads)", {1 << 22}, 1 << 10,
                      int64_t{1} << 26),
      BlockSizeAxis({256}),
  };
  // Serialised constant reads show as issue slots lost to the MIO queue and its scoreboard.
  f.counters = {kStallConstantMiss, kInstructionsExecuted, kIssueActive,
                "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio",
                "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio"};
  return f;
}

FamilyInfo MemoryReadonlyCache() {
  FamilyInfo f;
  f.name = "memory.readonly_cache";
  f.guide_section = "5.3.2 texture and surface memory / notes 2.3.3";
  f.lesson = "read-only path helps irregular reuse";
  f.variants = {
      {"plain",
       "gather out[i] = in[idx[i]], idx[i] a seeded place in i's 2048-float window, with plain "
       "loads the compiler cannot prove read-only",
       false, false},
      {"ldg", "the same gather through __ldg / const __restrict__", /*recommended=*/true, false},
      {"texture", "the same gather through a texture object (tex1Dfetch)", false, false},
  };
  f.axes = {
      ProblemSizeAxis("float elements gathered", {1 << 24}, 1 << 10, int64_t{1} << 27),
      BlockSizeAxis({256}),
  };
  f.counters = {kL1HitRate, kL2HitRate, kDramThroughput, kGlobalLoadEfficiency};
  return f;
}

FamilyInfo MemoryAllocationChurn() {
  FamilyInfo f;
  f.name = "memory.allocation_churn";
  f.guide_section = "5.5 memory allocation (stream-ordered allocator)";
  f.lesson = "allocation in the hot loop dominates small work";
  f.variants = {
      {"malloc_free",
       "timed: cudaMalloc of the scratch buffer + producer and consumer kernels + cudaFree "
       "(host-synchronous)",
       false, false},
      {"malloc_async_pool",
       "timed: cudaMallocFromPoolAsync + the two kernels + cudaFreeAsync, from a pool that keeps "
       "its memory (release threshold max)",
       false, false},
      {"preallocated",
       "timed: the two kernels on a scratch buffer allocated outside the timed region",
       /*recommended=*/true, false},
  };
  f.axes = {
      ProblemSizeAxis("floats allocated and written per iteration", {1 << 16}, 1,
                      int64_t{1} << 26),
      BlockSizeAxis({256}),
  };
  f.counters = {};
  f.timed_region =
      "the allocation and free around the two kernels (malloc_free, malloc_async_pool), or the "
      "two kernels alone (preallocated)";
  return f;
}

FamilyInfo MemoryManaged() {
  FamilyInfo f;
  f.name = "memory.managed";
  f.guide_section = "5.5 / unified memory";
  f.lesson = "prefetch recovers most of cudaMalloc's speed";
  f.variants = {
      {"device",
       "timed: the kernel on a cudaMalloc buffer, data already on the device (the ceiling)", false,
       /*reference=*/true},
      {"managed",
       "timed: the kernel on a cudaMallocManaged buffer written on the host and returned to host "
       "memory before every sample (untimed): its page faults migrate the data",
       false, false},
      {"managed_advise", "as managed with cudaMemAdviseSetPreferredLocation on the device", false,
       false},
      {"managed_prefetch",
       "timed: cudaMemPrefetchAsync of the buffer to the device, then the kernel",
       /*recommended=*/true, false},
  };
  f.axes = {
      ProblemSizeAxis("floats (bounded: at most a quarter of the device's free and the host's "
                      "available memory, else skipped)",
                      {1 << 22}, 1 << 10, int64_t{1} << 28),
      BlockSizeAxis({256}),
  };
  f.counters = {kDramThroughput};
  f.timed_region =
      "the kernel with the page faults and migration it triggers (managed, managed_advise) or the "
      "prefetch before it (managed_prefetch)";
  return f;
}

}  // namespace warpwatch::catalog::detail
