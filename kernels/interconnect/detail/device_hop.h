// Running work on another GPU inside a Case's timed region. The engine times a point with events
// on its own stream, on its own device; a node-scoped case works on other GPUs too. A DeviceHop
// owns a non-blocking stream on one GPU and joins it to the engine's stream both ways (fork: the
// hop's stream waits for everything enqueued on the engine's stream so far; join: the engine's
// stream waits for the hop's work), so the engine's start and end events bracket the other GPU's
// work. Cross-device event waits are the CUDA runtime's; where the GPU is the engine's own, the
// hop is the engine's stream itself and costs nothing.
#ifndef WARPWATCH_KERNELS_INTERCONNECT_DETAIL_DEVICE_HOP_H_
#define WARPWATCH_KERNELS_INTERCONNECT_DETAIL_DEVICE_HOP_H_

#include <cuda_runtime_api.h>

#include "common/status/status.h"

namespace warpwatch::kernels::detail {

// Makes `device` current for its lifetime and restores the previous current device after
// (errors restoring are logged). Check ok() after constructing.
class ScopedDevice {
 public:
  explicit ScopedDevice(int device);
  ~ScopedDevice();
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;
  const Status& status() const { return status_; }

 private:
  int previous_ = -1;
  Status status_;
};

// The current device's ordinal.
StatusOr<int> CurrentDevice();

// Not thread-safe; lifetime: the case's (destroyed before the engine's stream).
class DeviceHop {
 public:
  DeviceHop() = default;
  ~DeviceHop();
  DeviceHop(const DeviceHop&) = delete;
  DeviceHop& operator=(const DeviceHop&) = delete;

  // Creates the stream and events on `device` unless it is `home_device` (the engine's).
  Status Open(int device, int home_device);

  // The stream to enqueue on after Fork (the engine's stream when the device is the engine's).
  cudaStream_t stream(cudaStream_t home) const { return own_ ? stream_ : home; }

  // Fork: the hop's stream waits for `home`'s work so far. Join: `home` waits for the hop's work.
  Status Fork(cudaStream_t home);
  Status Join(cudaStream_t home);

  // Waits on the host for the hop's stream (Setup, Reset and Verify only).
  Status Synchronize(cudaStream_t home);

  int device() const { return device_; }

 private:
  int device_ = -1;
  int home_device_ = -1;
  bool own_ = false;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t forked_ = nullptr;  // recorded on the home device
  cudaEvent_t joined_ = nullptr;  // recorded on this device
};

}  // namespace warpwatch::kernels::detail

#endif  // WARPWATCH_KERNELS_INTERCONNECT_DETAIL_DEVICE_HOP_H_
