// The memory.readonly_cache gather kernels, one per load path, and the index fill.
#include "kernels/core/cuda_check.h"
#include "kernels/memory/readonly_cache/readonly_cache_kernels.h"

namespace warpwatch::kernels {
namespace {

// No __restrict__: out may alias in as far as the compiler knows, so it cannot use the
// non-coherent read-only path on its own.
__global__ void GatherPlainKernel(const float* in, const int* idx, float* out, int64_t n) {
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[idx[i]];
}

__global__ void GatherLdgKernel(const float* __restrict__ in, const int* __restrict__ idx,
                                float* __restrict__ out, int64_t n) {
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __ldg(&in[__ldg(&idx[i])]);
}

__global__ void GatherTextureKernel(cudaTextureObject_t in, const int* __restrict__ idx,
                                    float* __restrict__ out, int64_t n) {
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(in, idx[i]);
}

__global__ void FillIndicesKernel(int* idx, int64_t n, uint64_t seed) {
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    idx[i] = ReadonlyGatherIndex(seed, i, n);
  }
}

}  // namespace

Status FillReadonlyIndices(int* d_idx, int64_t n, uint64_t seed, cudaStream_t stream) {
  const int64_t blocks = (n + 255) / 256;
  FillIndicesKernel<<<static_cast<unsigned>(blocks < 4096 ? blocks : 4096), 256, 0, stream>>>(
      d_idx, n, seed);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

StatusOr<cudaTextureObject_t> MakeReadonlyTexture(const float* d_in, int64_t n) {
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = const_cast<float*>(d_in);
  resource.res.linear.desc = cudaCreateChannelDesc<float>();
  resource.res.linear.sizeInBytes = static_cast<size_t>(n) * sizeof(float);
  cudaTextureDesc texture{};
  texture.readMode = cudaReadModeElementType;
  cudaTextureObject_t object = 0;
  CUDA_RETURN_IF_ERROR(cudaCreateTextureObject(&object, &resource, &texture, nullptr));
  return object;
}

const void* ReadonlyGatherKernel(ReadonlyPath path) {
  switch (path) {
    case ReadonlyPath::kPlain:
      return reinterpret_cast<const void*>(&GatherPlainKernel);
    case ReadonlyPath::kLdg:
      return reinterpret_cast<const void*>(&GatherLdgKernel);
    case ReadonlyPath::kTexture:
      return reinterpret_cast<const void*>(&GatherTextureKernel);
  }
  return nullptr;
}

Status LaunchReadonlyGather(ReadonlyPath path, const float* d_in, cudaTextureObject_t texture,
                            const int* d_idx, float* d_out, int64_t n, unsigned grid,
                            unsigned block, cudaStream_t stream) {
  switch (path) {
    case ReadonlyPath::kPlain:
      GatherPlainKernel<<<grid, block, 0, stream>>>(d_in, d_idx, d_out, n);
      break;
    case ReadonlyPath::kLdg:
      GatherLdgKernel<<<grid, block, 0, stream>>>(d_in, d_idx, d_out, n);
      break;
    case ReadonlyPath::kTexture:
      GatherTextureKernel<<<grid, block, 0, stream>>>(texture, d_idx, d_out, n);
      break;
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
