// Identity and theoretical limits of one GPU (v1::Device), and the Telemetry to watch it with.
#ifndef WARPWATCH_WORKER_DEVICE_DEVICE_INFO_H_
#define WARPWATCH_WORKER_DEVICE_DEVICE_INFO_H_

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "common/status/status.h"
#include "warpwatch/v1/common.pb.h"
#include "worker/device/telemetry.h"

namespace warpwatch::worker {

struct DeviceInfo {
  v1::Device device;
  cudaDeviceProp prop;
};

// Number of CUDA devices. UNAVAILABLE "no CUDA device: <why>" when there is no driver, no GPU, or
// cudaGetDeviceCount fails.
StatusOr<int> CudaDeviceCount();

// Reads device `ordinal` (does not change the current device). The peak memory clock comes from
// cudaDevAttrMemoryClockRate (CUDA 13's cudaDeviceProp has none); max clocks from `telemetry`
// when it knows them (NVML), else the CUDA attributes. `telemetry` may be null.
StatusOr<DeviceInfo> QueryDevice(int ordinal, Telemetry* telemetry);

// NVML telemetry for the device when libnvidia-ml can be opened, else the clock probe on the
// current device. `note` (may be null) receives why NVML was not used.
StatusOr<std::unique_ptr<Telemetry>> OpenTelemetry(const v1::Device& device, std::string* note);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DEVICE_DEVICE_INFO_H_
