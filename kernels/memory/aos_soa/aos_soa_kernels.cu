// The memory.aos_soa update kernels. The struct kernels are written the way AoS code usually is
// (load the particle, change one field, store the particle); the compiler decides which fields it
// really moves, and the plain and aligned structs differ only in the alignment it may assume.
#include "kernels/core/cuda_check.h"
#include "kernels/memory/aos_soa/aos_soa_kernels.h"

namespace warpwatch::kernels {
namespace {

constexpr int kIlp = kParticlesPerThread;

struct Particle {
  float x, y, z, w;
};

struct __align__(16) ParticleAligned {
  float x, y, z, w;
};

static_assert(sizeof(Particle) == 16 && alignof(Particle) == 4, "plain struct layout");
static_assert(sizeof(ParticleAligned) == 16 && alignof(ParticleAligned) == 16, "aligned layout");

template <typename P>
__global__ void ShiftXAosKernel(P* __restrict__ particles, int64_t n) {
  const int64_t first = int64_t{blockIdx.x} * kIlp * blockDim.x + threadIdx.x;
  P p[kIlp];
#pragma unroll
  for (int k = 0; k < kIlp; ++k) {
    const int64_t i = first + int64_t{k} * blockDim.x;
    if (i < n) p[k] = particles[i];
  }
#pragma unroll
  for (int k = 0; k < kIlp; ++k) {
    const int64_t i = first + int64_t{k} * blockDim.x;
    if (i < n) {
      p[k].x += 1.0f;
      particles[i] = p[k];
    }
  }
}

__global__ void ShiftXSoaKernel(float* __restrict__ x, int64_t n) {
  const int64_t first = int64_t{blockIdx.x} * kIlp * blockDim.x + threadIdx.x;
  float v[kIlp];
#pragma unroll
  for (int k = 0; k < kIlp; ++k) {
    const int64_t i = first + int64_t{k} * blockDim.x;
    if (i < n) v[k] = x[i];
  }
#pragma unroll
  for (int k = 0; k < kIlp; ++k) {
    const int64_t i = first + int64_t{k} * blockDim.x;
    if (i < n) x[i] = v[k] + 1.0f;
  }
}

}  // namespace

const void* ShiftXKernel(ParticleLayout layout) {
  switch (layout) {
    case ParticleLayout::kAos:
      return reinterpret_cast<const void*>(&ShiftXAosKernel<Particle>);
    case ParticleLayout::kAosAligned:
      return reinterpret_cast<const void*>(&ShiftXAosKernel<ParticleAligned>);
    case ParticleLayout::kSoa:
      return reinterpret_cast<const void*>(&ShiftXSoaKernel);
  }
  return nullptr;
}

Status LaunchShiftX(ParticleLayout layout, float* d_particles, int64_t n, unsigned grid,
                    unsigned block, cudaStream_t stream) {
  switch (layout) {
    case ParticleLayout::kAos:
      ShiftXAosKernel<<<grid, block, 0, stream>>>(reinterpret_cast<Particle*>(d_particles), n);
      break;
    case ParticleLayout::kAosAligned:
      ShiftXAosKernel<<<grid, block, 0, stream>>>(reinterpret_cast<ParticleAligned*>(d_particles),
                                                  n);
      break;
    case ParticleLayout::kSoa:
      ShiftXSoaKernel<<<grid, block, 0, stream>>>(d_particles, n);
      break;
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
