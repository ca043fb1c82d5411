// Theoretical occupancy of a case's kernel: its resources from cudaFuncGetAttributes, active
// blocks from cudaOccupancyMaxActiveBlocksPerMultiprocessor, and the limiter from the calculator.
#ifndef WARPWATCH_WORKER_OCCUPANCY_OCCUPANCY_REPORT_H_
#define WARPWATCH_WORKER_OCCUPANCY_OCCUPANCY_REPORT_H_

#include <cuda_runtime_api.h>

#include "common/status/status.h"
#include "kernels/core/family.h"
#include "warpwatch/v1/measurement.pb.h"
#include "worker/occupancy/occupancy_calculator.h"

namespace warpwatch::worker {

// The calculator's limits for a device.
SmLimits SmLimitsOf(const cudaDeviceProp& prop);

// A kernel's resources for a launch of `block_threads` threads with `dynamic_shared_bytes`
// (what cuda_occupancy.h's cudaOccFuncAttributes takes from cudaFuncAttributes).
KernelResources KernelResourcesOf(const cudaFuncAttributes& attr, int block_threads,
                                  size_t dynamic_shared_bytes);

// Precondition: shape.function != nullptr. Fills every field but `achieved`. When the calculator
// and the occupancy API disagree on the active blocks, the API's number is reported (it knows the
// driver's shared-memory carve-out) and the limiter is still the calculator's.
StatusOr<v1::Occupancy> TheoreticalOccupancy(const kernels::LaunchShape& shape,
                                             const cudaDeviceProp& prop);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_OCCUPANCY_OCCUPANCY_REPORT_H_
