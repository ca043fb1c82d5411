// The GPU architectures this build carries code for (the CMake list of
// cmake/WarpwatchCudaArchitectures.cmake), which image a device runs, and the preconditions
// families use to keep points off GPUs that cannot run them (SKIPPED, not FAILED).
#ifndef WARPWATCH_KERNELS_CORE_CUDA_ARCHITECTURES_H_
#define WARPWATCH_KERNELS_CORE_CUDA_ARCHITECTURES_H_

#include <cuda_runtime_api.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::kernels {

// What a binary carries: native code (SASS, "sm_XY") and PTX ("compute_XY"), as 10*major+minor.
struct ArchitectureSet {
  std::vector<int> real;     // ascending
  std::vector<int> virtual_;  // ascending
};

// This build's set, from the CMake list (empty when CMake was given "all" or "native").
const ArchitectureSet& BuiltArchitectures();

// "sm_75", ..., then "compute_121": RunEnvironment.built_architectures.
std::vector<std::string> ArchitectureNames(const ArchitectureSet& set);

// "sm_90" for compute capability 9.0.
std::string DeviceArchitectureName(int major, int minor);

// The image the CUDA driver loads on a device of compute capability major.minor: the newest
// native code of the same major version no newer than the device ("sm_90"; an 8.7 GPU runs
// sm_86 code), else the newest PTX no newer than the device, JIT-compiled
// ("compute_121 (PTX, JIT)"); "none" when the set holds neither.
std::string CodeArchitectureFor(int major, int minor, const ArchitectureSet& set);

// For Family::MakeCase of families that use newer hardware: FAILED_PRECONDITION (the engine
// records SKIPPED) "needs sm_80+ (<feature>); this GPU is sm_75" when prop's compute capability
// is below major.minor.
Status RequireComputeCapability(const cudaDeviceProp& prop, int major, int minor,
                                std::string_view feature);

// FAILED_PRECONDITION (SKIPPED) "this worker carries no code for sm_XY (built: ...)" when
// cudaFuncGetAttributes on `kernel` reports cudaErrorNoKernelImageForDevice (the error is
// cleared, it is not sticky). Another CUDA error is returned as CudaError's status.
// Precondition: the device of `prop` is current and `kernel` is a __global__ function's address.
Status RequireKernelImage(const void* kernel, const cudaDeviceProp& prop);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_CUDA_ARCHITECTURES_H_
