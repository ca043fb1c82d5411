// RunEnvironment of an opened device.
#include "worker/engine/detail/run_environment.h"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include "common/catalog/catalog.h"
#include "kernels/core/build_test_codegen.h"
#include "kernels/core/cuda_architectures.h"
#include "worker/version.h"

namespace warpwatch::worker::detail {

v1::RunEnvironment BuildRunEnvironment(const v1::Device& device, Telemetry& telemetry) {
  v1::RunEnvironment env;
  *env.mutable_device() = device;
  char host[256] = {0};
  if (::gethostname(host, sizeof host - 1) == 0) env.set_hostname(host);
  env.set_driver_version(telemetry.DriverVersion());
  int version = 0;
  if (cudaDriverGetVersion(&version) == cudaSuccess) env.set_cuda_driver_version(version);
  if (cudaRuntimeGetVersion(&version) == cudaSuccess) env.set_cuda_runtime_version(version);
  env.set_worker_version(kWorkerVersion);
  env.set_suite_version(catalog::kSuiteVersion);
  DeviceConditions start = telemetry.ReadConditions();
  env.set_sm_clock_mhz_start(static_cast<int>(start.sm_clock_mhz));
  env.set_memory_clock_mhz_start(static_cast<int>(start.memory_clock_mhz));
  env.set_temperature_c_start(start.temperature_c);
  env.set_power_w_start(start.power_w);
  env.set_clock_source(telemetry.source());
  const ClockSetting setting = telemetry.ReadClockSetting();
  env.set_sm_clock_setting_mhz(setting.sm_clock_mhz);
  env.set_sm_clock_policy(ClockPolicyName(setting.policy));
  const kernels::ArchitectureSet& built = kernels::BuiltArchitectures();
  for (const std::string& name : kernels::ArchitectureNames(built)) {
    env.add_built_architectures(name);
  }
  env.set_device_architecture(kernels::DeviceArchitectureName(
      device.compute_capability_major(), device.compute_capability_minor()));
  env.set_code_architecture(kernels::CodeArchitectureFor(
      device.compute_capability_major(), device.compute_capability_minor(), built));
  for (const auto& [k, v] : kernels::BuildTestCodegenLabels(kernels::BuildTestCodegen())) {
    (*env.mutable_labels())[k] = v;
  }
  return env;
}

}  // namespace warpwatch::worker::detail
