// The Case shared by the instr.* families: n threads, each reading one seeded float, running a
// fixed loop of the instruction under test and storing one double. Verify compares a sample of the
// threads' results with a CPU reference computed from (seed, thread).
#ifndef WARPWATCH_KERNELS_INSTR_DETAIL_COMPUTE_CASE_H_
#define WARPWATCH_KERNELS_INSTR_DETAIL_COMPUTE_CASE_H_

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "kernels/core/family.h"

namespace warpwatch::kernels::instr_detail {

// What one instr.* point runs. All callbacks are called from the engine's thread only.
struct ComputeSpec {
  std::string key;  // the point's canonical key, for messages
  int64_t n = 0;    // threads
  unsigned block = 256;
  unsigned grid = 1;  // ceil(n / block)
  size_t dynamic_shared_bytes = 0;
  const void* kernel = nullptr;  // the __global__ function `launch` starts (for occupancy)
  // Enqueues the kernel: d_in holds n seeded floats (SeededFloat(kSeed, i)), d_out n doubles.
  std::function<Status(const float* d_in, double* d_out, cudaStream_t stream)> launch;
  // The value thread t must store, computed on the CPU from (kSeed, t).
  std::function<double(int64_t t)> reference;
  // 0: exact comparison; > 0: |got - expected| <= tolerance * max(1, |expected|).
  double tolerance = 0;
  Work work;
  // Optional second check after the output comparison (instr.intrinsics' accuracy pass over
  // every input); its max_error replaces the output comparison's in the result.
  std::function<VerifyResult(const float* d_in, cudaStream_t stream)> accuracy;
};

// The Case running `spec`, on kernels/core's elementwise template (n floats in, n doubles out,
// the output cleared before every run). INTERNAL when `spec` lacks launch or reference.
StatusOr<std::unique_ptr<Case>> MakeComputeCase(ComputeSpec spec);

// Threads whose results Verify compares: every thread when n <= 4096, else 4096 evenly spaced
// ones plus the last. Keeps the CPU reference of long per-thread loops to a fraction of a second.
std::vector<int64_t> SampledThreads(int64_t n);

}  // namespace warpwatch::kernels::instr_detail

#endif  // WARPWATCH_KERNELS_INSTR_DETAIL_COMPUTE_CASE_H_
