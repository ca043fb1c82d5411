// Inputs and CPU reference of memory.aos_soa: the particles' seeded values in either layout.
#ifndef WARPWATCH_KERNELS_MEMORY_AOS_SOA_AOS_SOA_REFERENCE_H_
#define WARPWATCH_KERNELS_MEMORY_AOS_SOA_AOS_SOA_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "kernels/memory/aos_soa/aos_soa_kernels.h"

namespace warpwatch::kernels {

// Field f (0..3 = x, y, z, w) of particle i is SeededFloat(seed + f, i) in every layout.
inline constexpr int kParticleFields = 4;

// Index of field `field` of particle i among the 4n floats of `layout`.
inline int64_t ParticleFloatIndex(ParticleLayout layout, int64_t n, int64_t i, int field) {
  return layout == ParticleLayout::kSoa ? field * n + i : i * kParticleFields + field;
}

// The 4n floats of `layout` after one LaunchShiftX on the seeded particles (x + 1, y, z, w).
std::vector<float> AosSoaReference(ParticleLayout layout, int64_t n, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_AOS_SOA_AOS_SOA_REFERENCE_H_
