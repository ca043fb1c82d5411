// memory.aos_soa kernels behind host launchers: the same update (x += 1) of n particles
// {x, y, z, w} stored as an array of structs (plain or __align__(16)) or as a struct of arrays.
#ifndef WARPWATCH_KERNELS_MEMORY_AOS_SOA_AOS_SOA_KERNELS_H_
#define WARPWATCH_KERNELS_MEMORY_AOS_SOA_AOS_SOA_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

enum class ParticleLayout {
  kAos,         // struct {float x, y, z, w} (4-byte aligned), particle i at floats [4i, 4i+4)
  kAosAligned,  // the same struct declared __align__(16)
  kSoa,         // x at floats [0, n), y at [n, 2n), z at [2n, 3n), w at [3n, 4n)
};

// Particles each thread updates (consecutive blocks of blockDim.x particles).
inline constexpr int kParticlesPerThread = 4;

// In place on d_particles (4n floats in `layout`, 16-byte aligned): x_i += 1.0f for i in [0, n);
// y, z, w untouched. Any n >= 1; grid: ceil(n / (block * kParticlesPerThread)).
Status LaunchShiftX(ParticleLayout layout, float* d_particles, int64_t n, unsigned grid,
                    unsigned block, cudaStream_t stream);

// The __global__ function LaunchShiftX launches for `layout`.
const void* ShiftXKernel(ParticleLayout layout);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_AOS_SOA_AOS_SOA_KERNELS_H_
