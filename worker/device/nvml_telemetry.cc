// NVML telemetry through dlopen.
#include "worker/device/nvml_telemetry.h"

#include <dlfcn.h>

namespace warpwatch::worker {
namespace {

template <typename Fn>
Fn Symbol(void* lib, const char* name) {
  return reinterpret_cast<Fn>(::dlsym(lib, name));
}

}  // namespace

StatusOr<std::unique_ptr<Telemetry>> NvmlTelemetry::Open(const std::string& uuid,
                                                         const std::string& pci_bus_id) {
  detail::NvmlApi api;
  api.library = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (api.library == nullptr) {
    const char* why = ::dlerror();
    return UnavailableError(std::string("cannot load libnvidia-ml.so.1: ") + (why ? why : "?"));
  }
  void* lib = api.library;
  api.init = Symbol<detail::NvmlInitFn>(lib, "nvmlInit_v2");
  api.shutdown = Symbol<detail::NvmlShutdownFn>(lib, "nvmlShutdown");
  api.error_string = Symbol<detail::NvmlErrorStringFn>(lib, "nvmlErrorString");
  api.handle_by_uuid = Symbol<detail::NvmlGetHandleByStringFn>(lib, "nvmlDeviceGetHandleByUUID");
  api.handle_by_pci =
      Symbol<detail::NvmlGetHandleByStringFn>(lib, "nvmlDeviceGetHandleByPciBusId_v2");
  api.clock_info = Symbol<detail::NvmlGetClockFn>(lib, "nvmlDeviceGetClockInfo");
  api.max_clock_info = Symbol<detail::NvmlGetClockFn>(lib, "nvmlDeviceGetMaxClockInfo");
  api.applications_clock = Symbol<detail::NvmlGetClockFn>(lib, "nvmlDeviceGetApplicationsClock");
  api.default_applications_clock =
      Symbol<detail::NvmlGetClockFn>(lib, "nvmlDeviceGetDefaultApplicationsClock");
  api.temperature = Symbol<detail::NvmlGetTemperatureFn>(lib, "nvmlDeviceGetTemperature");
  api.power_usage = Symbol<detail::NvmlGetPowerUsageFn>(lib, "nvmlDeviceGetPowerUsage");
  api.clock_reasons =
      Symbol<detail::NvmlGetReasonsFn>(lib, "nvmlDeviceGetCurrentClocksEventReasons");
  if (api.clock_reasons == nullptr) {
    api.clock_reasons =
        Symbol<detail::NvmlGetReasonsFn>(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
  }
  api.driver_version = Symbol<detail::NvmlGetDriverVersionFn>(lib, "nvmlSystemGetDriverVersion");
  if (!api.init || !api.shutdown || !api.clock_info || !api.handle_by_uuid) {
    ::dlclose(lib);
    return UnavailableError("libnvidia-ml.so.1 lacks nvmlInit_v2/nvmlDeviceGetClockInfo");
  }
  detail::nvmlReturn_t rc = api.init();
  if (rc != detail::kNvmlSuccess) {
    std::string why = api.error_string ? api.error_string(rc) : std::to_string(rc);
    ::dlclose(lib);
    return UnavailableError("nvmlInit_v2: " + why);
  }
  detail::nvmlDevice_t device = nullptr;
  rc = api.handle_by_uuid(uuid.c_str(), &device);
  if (rc != detail::kNvmlSuccess && api.handle_by_pci != nullptr) {
    rc = api.handle_by_pci(pci_bus_id.c_str(), &device);
  }
  if (rc != detail::kNvmlSuccess) {
    std::string why = api.error_string ? api.error_string(rc) : std::to_string(rc);
    api.shutdown();
    ::dlclose(lib);
    return UnavailableError("NVML has no device " + uuid + " / " + pci_bus_id + ": " + why);
  }
  return std::unique_ptr<Telemetry>(new NvmlTelemetry(api, device));
}

std::unique_ptr<Telemetry> NvmlTelemetry::FromApi(detail::NvmlApi api,
                                                  detail::nvmlDevice_t device) {
  return std::unique_ptr<Telemetry>(new NvmlTelemetry(api, device));
}

NvmlTelemetry::~NvmlTelemetry() {
  if (api_.shutdown != nullptr) api_.shutdown();
  if (api_.library != nullptr) ::dlclose(api_.library);
}

unsigned int NvmlTelemetry::Clock(int type, bool max) {
  return Read(max ? api_.max_clock_info : api_.clock_info, type);
}

unsigned int NvmlTelemetry::Read(detail::NvmlGetClockFn fn, int type) {
  unsigned int mhz = 0;
  if (fn == nullptr || fn(device_, type, &mhz) != detail::kNvmlSuccess) return 0;
  return mhz;
}

ClockSetting NvmlTelemetry::ReadClockSetting() {
  SmClockLimits limits;
  limits.max_mhz = Clock(detail::kNvmlClockSm, true);
  limits.applications_mhz = Read(api_.applications_clock, detail::kNvmlClockSm);
  limits.default_applications_mhz = Read(api_.default_applications_clock, detail::kNvmlClockSm);
  return ResolveClockSetting(limits);
}

ClockReading NvmlTelemetry::ReadClock() {
  ClockReading r;
  r.sm_clock_mhz = Clock(detail::kNvmlClockSm, false);
  unsigned long long reasons = 0;
  if (api_.clock_reasons != nullptr &&
      api_.clock_reasons(device_, &reasons) == detail::kNvmlSuccess) {
    r.throttle_reasons = reasons;
  }
  return r;
}

DeviceConditions NvmlTelemetry::ReadConditions() {
  DeviceConditions c;
  c.sm_clock_mhz = Clock(detail::kNvmlClockSm, false);
  c.memory_clock_mhz = Clock(detail::kNvmlClockMem, false);
  unsigned int value = 0;
  if (api_.temperature != nullptr &&
      api_.temperature(device_, detail::kNvmlTemperatureGpu, &value) == detail::kNvmlSuccess) {
    c.temperature_c = value;
  }
  if (api_.power_usage != nullptr &&
      api_.power_usage(device_, &value) == detail::kNvmlSuccess) {
    c.power_w = value / 1000.0;
  }
  return c;
}

int NvmlTelemetry::MaxSmClockMhz() { return static_cast<int>(Clock(detail::kNvmlClockSm, true)); }
int NvmlTelemetry::MaxMemoryClockMhz() {
  return static_cast<int>(Clock(detail::kNvmlClockMem, true));
}

std::string NvmlTelemetry::DriverVersion() {
  char buf[96] = {0};
  if (api_.driver_version == nullptr ||
      api_.driver_version(buf, sizeof buf) != detail::kNvmlSuccess) {
    return "";
  }
  return buf;
}

}  // namespace warpwatch::worker
