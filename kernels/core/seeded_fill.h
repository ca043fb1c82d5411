// Device-side fills with the suite's seeded values (seeded_values.h): element i of the buffer gets
// SeededX(seed, i). Enqueued on `stream`; used in Setup and, for in-place kernels, in Reset.
#ifndef WARPWATCH_KERNELS_CORE_SEEDED_FILL_H_
#define WARPWATCH_KERNELS_CORE_SEEDED_FILL_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

Status FillSeededFloats(float* d_out, size_t n, uint64_t seed, cudaStream_t stream);
// Values in [1, max_value]; precondition max_value >= 1.
Status FillSeededInts(int* d_out, size_t n, uint64_t seed, int max_value, cudaStream_t stream);
Status FillSeededBytes(uint8_t* d_out, size_t n, uint64_t seed, cudaStream_t stream);

// Writes SeededFloat(seed, i) into field `field` of `n` records of `stride_floats` floats each
// (d_out[i * stride_floats + field]); the other fields are left alone. For array-of-structs inputs.
Status FillSeededFloatsStrided(float* d_out, size_t n, size_t stride_floats, size_t field,
                               uint64_t seed, cudaStream_t stream);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_SEEDED_FILL_H_
