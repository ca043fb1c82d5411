// Telemetry from NVML, loaded at run time with dlopen("libnvidia-ml.so.1").
#ifndef WARPWATCH_WORKER_DEVICE_NVML_TELEMETRY_H_
#define WARPWATCH_WORKER_DEVICE_NVML_TELEMETRY_H_

#include <memory>
#include <string>

#include "common/status/status.h"
#include "worker/device/detail/nvml_api.h"
#include "worker/device/telemetry.h"

namespace warpwatch::worker {

class NvmlTelemetry : public Telemetry {
 public:
  // Opens NVML and finds the GPU by UUID ("GPU-...") or, failing that, PCI bus id.
  // UNAVAILABLE with the reason when the library, a required symbol or the device is missing.
  static StatusOr<std::unique_ptr<Telemetry>> Open(const std::string& uuid,
                                                   const std::string& pci_bus_id);
  // Over already resolved entry points (tests hand in fakes): `api.library` and `api.shutdown`
  // may be null; entry points left null read as unknown. Takes ownership of an open library.
  static std::unique_ptr<Telemetry> FromApi(detail::NvmlApi api, detail::nvmlDevice_t device);
  ~NvmlTelemetry() override;

  std::string source() const override { return "nvml"; }
  ClockReading ReadClock() override;
  DeviceConditions ReadConditions() override;
  int MaxSmClockMhz() override;
  // Application clocks set away from their default, else the maximum (ResolveClockSetting).
  ClockSetting ReadClockSetting() override;
  int MaxMemoryClockMhz() override;
  std::string DriverVersion() override;

 private:
  NvmlTelemetry(detail::NvmlApi api, detail::nvmlDevice_t device) : api_(api), device_(device) {}
  unsigned int Clock(int type, bool max);
  unsigned int Read(detail::NvmlGetClockFn fn, int type);  // 0 when absent or failing

  detail::NvmlApi api_;
  detail::nvmlDevice_t device_;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DEVICE_NVML_TELEMETRY_H_
