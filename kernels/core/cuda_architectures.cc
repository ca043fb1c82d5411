// The architectures of this build (compile definitions generated from the CMake list) and the
// preconditions that keep points off GPUs without code for them.
#include "kernels/core/cuda_architectures.h"

#include <algorithm>
#include <sstream>

#include "kernels/core/cuda_check.h"

#ifndef WARPWATCH_CUDA_REAL_ARCHS
#error "WARPWATCH_CUDA_REAL_ARCHS comes from kernels/CMakeLists.txt (WarpwatchCudaArchitectures)"
#endif
#ifndef WARPWATCH_CUDA_VIRTUAL_ARCHS
#error "WARPWATCH_CUDA_VIRTUAL_ARCHS comes from kernels/CMakeLists.txt (WarpwatchCudaArchitectures)"
#endif

namespace warpwatch::kernels {
namespace {

std::vector<int> ParseList(const char* csv) {
  std::vector<int> out;
  std::stringstream in(csv);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(std::stoi(item));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string Sm(int arch) { return "sm_" + std::to_string(arch); }

}  // namespace

const ArchitectureSet& BuiltArchitectures() {
  static const auto* set = new ArchitectureSet{ParseList(WARPWATCH_CUDA_REAL_ARCHS),
                                               ParseList(WARPWATCH_CUDA_VIRTUAL_ARCHS)};
  return *set;
}

std::vector<std::string> ArchitectureNames(const ArchitectureSet& set) {
  std::vector<std::string> names;
  for (int a : set.real) names.push_back(Sm(a));
  for (int a : set.virtual_) names.push_back("compute_" + std::to_string(a));
  return names;
}

std::string DeviceArchitectureName(int major, int minor) { return Sm(major * 10 + minor); }

std::string CodeArchitectureFor(int major, int minor, const ArchitectureSet& set) {
  const int device = major * 10 + minor;
  // Native code runs on GPUs of its major version with an equal or higher minor.
  for (auto it = set.real.rbegin(); it != set.real.rend(); ++it) {
    if (*it / 10 == major && *it <= device) return Sm(*it);
  }
  for (auto it = set.virtual_.rbegin(); it != set.virtual_.rend(); ++it) {
    if (*it <= device) return "compute_" + std::to_string(*it) + " (PTX, JIT)";
  }
  return "none";
}

Status RequireComputeCapability(const cudaDeviceProp& prop, int major, int minor,
                                std::string_view feature) {
  if (prop.major > major || (prop.major == major && prop.minor >= minor)) return OkStatus();
  return FailedPreconditionError("needs " + Sm(major * 10 + minor) + "+ (" + std::string(feature) +
                                 "); this GPU is " +
                                 DeviceArchitectureName(prop.major, prop.minor));
}

Status RequireKernelImage(const void* kernel, const cudaDeviceProp& prop) {
  cudaFuncAttributes attr;
  cudaError_t err = cudaFuncGetAttributes(&attr, kernel);
  if (err == cudaSuccess) return OkStatus();
  if (err == cudaErrorNoKernelImageForDevice) {
    (void)cudaGetLastError();  // not sticky: the next launch check must not see it
    std::string built;
    for (const std::string& name : ArchitectureNames(BuiltArchitectures())) {
      built += (built.empty() ? "" : ", ") + name;
    }
    return FailedPreconditionError("this worker carries no code for " +
                                   DeviceArchitectureName(prop.major, prop.minor) +
                                   " (built: " + (built.empty() ? "unknown" : built) + ")");
  }
  return CudaError(err, "cudaFuncGetAttributes(kernel)", __FILE__, __LINE__);
}

}  // namespace warpwatch::kernels
