// GPU identity from the CUDA runtime and NVML.
#include "worker/device/device_info.h"

#include "kernels/core/cuda_check.h"
#include "worker/device/nvml_telemetry.h"
#include "worker/device/probe_telemetry.h"
#include "worker/device/uuid_format.h"
#include "worker/stats/throughput.h"

namespace warpwatch::worker {

StatusOr<int> CudaDeviceCount() {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    return UnavailableError(std::string("no CUDA device: cudaGetDeviceCount: ") +
                            cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
  }
  if (count == 0) return UnavailableError("no CUDA device: cudaGetDeviceCount returned 0");
  return count;
}

StatusOr<DeviceInfo> QueryDevice(int ordinal, Telemetry* telemetry) {
  DeviceInfo info;
  CUDA_RETURN_IF_ERROR(cudaGetDeviceProperties(&info.prop, ordinal));
  const cudaDeviceProp& p = info.prop;
  int memory_clock_khz = 0, sm_clock_khz = 0;
  CUDA_RETURN_IF_ERROR(
      cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
  CUDA_RETURN_IF_ERROR(cudaDeviceGetAttribute(&sm_clock_khz, cudaDevAttrClockRate, ordinal));
  char pci[32] = {0};
  CUDA_RETURN_IF_ERROR(cudaDeviceGetPCIBusId(pci, sizeof pci, ordinal));

  v1::Device& d = info.device;
  d.set_uuid(FormatGpuUuid(reinterpret_cast<const unsigned char*>(p.uuid.bytes)));
  d.set_name(p.name);
  d.set_compute_capability_major(p.major);
  d.set_compute_capability_minor(p.minor);
  d.set_sm_count(p.multiProcessorCount);
  d.set_memory_bytes(static_cast<int64_t>(p.totalGlobalMem));
  d.set_l2_bytes(p.l2CacheSize);
  d.set_memory_bus_width_bits(p.memoryBusWidth);
  d.set_ecc_enabled(p.ECCEnabled != 0);
  d.set_pci_bus_id(pci);
  d.set_index(ordinal);
  d.set_max_threads_per_sm(p.maxThreadsPerMultiProcessor);
  d.set_max_blocks_per_sm(p.maxBlocksPerMultiProcessor);
  d.set_registers_per_sm(p.regsPerMultiprocessor);
  d.set_shared_memory_per_sm_bytes(static_cast<int64_t>(p.sharedMemPerMultiprocessor));
  d.set_shared_memory_per_block_optin_bytes(static_cast<int64_t>(p.sharedMemPerBlockOptin));

  int max_sm_mhz = telemetry ? telemetry->MaxSmClockMhz() : 0;
  int max_mem_mhz = telemetry ? telemetry->MaxMemoryClockMhz() : 0;
  if (max_sm_mhz <= 0) max_sm_mhz = sm_clock_khz / 1000;
  if (max_mem_mhz <= 0) max_mem_mhz = memory_clock_khz / 1000;
  if (memory_clock_khz <= 0) memory_clock_khz = max_mem_mhz * 1000;
  d.set_memory_clock_khz(memory_clock_khz);
  d.set_max_sm_clock_mhz(max_sm_mhz);
  d.set_max_memory_clock_mhz(max_mem_mhz);
  d.set_theoretical_bandwidth_bytes_per_second(
      TheoreticalBandwidth(memory_clock_khz, p.memoryBusWidth));
  return info;
}

StatusOr<std::unique_ptr<Telemetry>> OpenTelemetry(const v1::Device& device, std::string* note) {
  StatusOr<std::unique_ptr<Telemetry>> nvml = NvmlTelemetry::Open(device.uuid(), device.pci_bus_id());
  if (nvml.ok()) return nvml;
  if (note != nullptr) *note = nvml.status().message();
  return ProbeTelemetry::Create(device.max_sm_clock_mhz(), ReadProcDriverVersion());
}

}  // namespace warpwatch::worker
