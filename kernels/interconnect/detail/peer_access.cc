// cudaDeviceEnablePeerAccess, idempotent.
#include "kernels/interconnect/detail/peer_access.h"

#include <cuda_runtime_api.h>

#include <string>

#include "kernels/core/cuda_check.h"
#include "kernels/interconnect/detail/device_hop.h"
#include "kernels/interconnect/interconnect_plan.h"

namespace warpwatch::kernels::detail {

Status CheckPeerPath(int accessor, int owner) {
  int can = 0;
  CUDA_RETURN_IF_ERROR(cudaDeviceCanAccessPeer(&can, accessor, owner));
  if (can == 0) {
    return FailedPreconditionError(std::string(kNotApplicable) + "GPU " +
                                   std::to_string(accessor) + " cannot access GPU " +
                                   std::to_string(owner) + "'s memory (no peer path)");
  }
  return OkStatus();
}

Status EnablePeerAccess(int accessor, int owner) {
  RETURN_IF_ERROR(CheckPeerPath(accessor, owner));
  ScopedDevice on(accessor);
  RETURN_IF_ERROR(on.status());
  const cudaError_t err = cudaDeviceEnablePeerAccess(owner, 0);
  if (err == cudaErrorPeerAccessAlreadyEnabled) {
    (void)cudaGetLastError();  // not an error here; keep later launch checks clean
    return OkStatus();
  }
  if (err != cudaSuccess) return CudaError(err, "cudaDeviceEnablePeerAccess", __FILE__, __LINE__);
  return OkStatus();
}

}  // namespace warpwatch::kernels::detail
