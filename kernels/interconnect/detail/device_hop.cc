// ScopedDevice and DeviceHop.
#include "kernels/interconnect/detail/device_hop.h"

#include "kernels/core/cuda_check.h"

namespace warpwatch::kernels::detail {

ScopedDevice::ScopedDevice(int device) {
  cudaError_t err = cudaGetDevice(&previous_);
  if (err != cudaSuccess) {
    status_ = CudaError(err, "cudaGetDevice", __FILE__, __LINE__);
    previous_ = -1;
    return;
  }
  if (device == previous_) return;
  err = cudaSetDevice(device);
  if (err != cudaSuccess) status_ = CudaError(err, "cudaSetDevice", __FILE__, __LINE__);
}

ScopedDevice::~ScopedDevice() {
  if (previous_ >= 0) CUDA_CHECK_NOEXCEPT(cudaSetDevice(previous_));
}

StatusOr<int> CurrentDevice() {
  int device = -1;
  CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
  return device;
}

DeviceHop::~DeviceHop() {
  if (!own_) return;
  ScopedDevice on(device_);
  if (stream_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaStreamDestroy(stream_));
  if (joined_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(joined_));
  ScopedDevice home(home_device_);
  if (forked_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(forked_));
}

Status DeviceHop::Open(int device, int home_device) {
  device_ = device;
  home_device_ = home_device;
  own_ = device != home_device;
  if (!own_) return OkStatus();
  {
    ScopedDevice home(home_device);
    RETURN_IF_ERROR(home.status());
    CUDA_RETURN_IF_ERROR(cudaEventCreateWithFlags(&forked_, cudaEventDisableTiming));
  }
  ScopedDevice on(device);
  RETURN_IF_ERROR(on.status());
  CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  CUDA_RETURN_IF_ERROR(cudaEventCreateWithFlags(&joined_, cudaEventDisableTiming));
  return OkStatus();
}

Status DeviceHop::Fork(cudaStream_t home) {
  if (!own_) return OkStatus();
  CUDA_RETURN_IF_ERROR(cudaEventRecord(forked_, home));
  CUDA_RETURN_IF_ERROR(cudaStreamWaitEvent(stream_, forked_, 0));
  return OkStatus();
}

Status DeviceHop::Join(cudaStream_t home) {
  if (!own_) return OkStatus();
  CUDA_RETURN_IF_ERROR(cudaEventRecord(joined_, stream_));
  CUDA_RETURN_IF_ERROR(cudaStreamWaitEvent(home, joined_, 0));
  return OkStatus();
}

Status DeviceHop::Synchronize(cudaStream_t home) {
  CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream(home)));
  return OkStatus();
}

}  // namespace warpwatch::kernels::detail
