// File: worker/daemon/gpu_serve.cc
#include "worker/daemon/gpu_serve.h"

#include <spdlog/spdlog.h>

#include <memory>
#include <string>
#include <vector>

#include "kernels/core/family.h"
#include "worker/daemon/serve_command.h"
#include "worker/device/device_info.h"
#include "worker/device/nvml_telemetry.h"
#include "worker/executor/process_executor.h"
#include "worker/version.h"

namespace warpwatch::worker {
namespace {

// Identity of every device; max clocks from NVML where it opens. The daemon itself never creates a
// CUDA context or launches a kernel: GPU work happens in the executor's children.
StatusOr<std::vector<v1::Device>> ListDevices() {
  ASSIGN_OR_RETURN(int count, CudaDeviceCount());
  std::vector<v1::Device> devices;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    ASSIGN_OR_RETURN(DeviceInfo info, QueryDevice(ordinal, nullptr));
    StatusOr<std::unique_ptr<Telemetry>> nvml =
        NvmlTelemetry::Open(info.device.uuid(), info.device.pci_bus_id());
    if (nvml.ok()) {
      ASSIGN_OR_RETURN(info, QueryDevice(ordinal, nvml->get()));
    }
    devices.push_back(info.device);
  }
  return devices;
}

}  // namespace

int RunGpuServe(const ServeOptions& options) {
  StatusOr<std::string> self = SelfExecutablePath();
  if (!self.ok()) {
    spdlog::error("serve: {}", self.status().message());
    return kServeExitUsage;
  }
  ServeHooks hooks;
  hooks.list_devices = ListDevices;
  std::vector<std::string> child_argv = {*self, "exec"};
  for (const std::string& a : ContentionChildArgs(options.test_contention)) {
    child_argv.push_back(a);
  }
  hooks.make_executor = [child_argv](const v1::Device&) -> std::unique_ptr<Executor> {
    ProcessExecutorOptions exec_options;
    exec_options.child_argv = child_argv;
    return std::make_unique<ProcessExecutor>(exec_options);
  };
  hooks.open_telemetry = [](const v1::Device& device) -> std::unique_ptr<Telemetry> {
    // NVML only: the clock-probe fallback would launch kernels in the daemon process.
    StatusOr<std::unique_ptr<Telemetry>> nvml =
        NvmlTelemetry::Open(device.uuid(), device.pci_bus_id());
    if (!nvml.ok()) {
      spdlog::warn("GPU {}: no telemetry metrics: {}", device.index(), nvml.status().message());
      return nullptr;
    }
    return std::move(nvml).value();
  };
  hooks.families = kernels::ImplementedFamilies();
  hooks.version = kWorkerVersion;
  return RunServe(options, hooks);
}

}  // namespace warpwatch::worker
