// A kernel compiled for sm_75 only (its target's CUDA_ARCHITECTURES), for kernel_image_gpu_test.
namespace warpwatch::kernels {
namespace {

__global__ void Sm75Only(int* out) { *out = 75; }

}  // namespace

const void* Sm75OnlyKernel() { return reinterpret_cast<const void*>(Sm75Only); }

}  // namespace warpwatch::kernels
