// The real name of a __global__ function of ours, from the CUDA runtime (cudaFuncGetName), as
// profilers print it.
#ifndef WARPWATCH_WORKER_ENGINE_KERNEL_SYMBOLS_H_
#define WARPWATCH_WORKER_ENGINE_KERNEL_SYMBOLS_H_

#include "common/status/status.h"
#include "worker/profiler/kernel_name.h"

namespace warpwatch::worker {

// `function`: the address of a __global__ function (as LaunchShape::function holds it).
StatusOr<KernelName> NameOfKernel(const void* function);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_KERNEL_SYMBOLS_H_
