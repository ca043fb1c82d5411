// The few NVML declarations the worker uses. The build machines have no nvml.h and the worker must
// start without libnvidia-ml, so these mirror nvml.h's ABI and the functions are looked up with
// dlsym at run time.
#ifndef WARPWATCH_WORKER_DEVICE_DETAIL_NVML_API_H_
#define WARPWATCH_WORKER_DEVICE_DETAIL_NVML_API_H_

namespace warpwatch::worker::detail {

typedef struct nvmlDevice_st* nvmlDevice_t;
typedef int nvmlReturn_t;                 // enum nvmlReturn_enum; NVML_SUCCESS = 0
inline constexpr nvmlReturn_t kNvmlSuccess = 0;
inline constexpr int kNvmlClockSm = 1;    // NVML_CLOCK_SM
inline constexpr int kNvmlClockMem = 2;   // NVML_CLOCK_MEM
inline constexpr int kNvmlTemperatureGpu = 0;  // NVML_TEMPERATURE_GPU

// Function pointer types, named after the entry points they hold.
using NvmlInitFn = nvmlReturn_t (*)();
using NvmlShutdownFn = nvmlReturn_t (*)();
using NvmlErrorStringFn = const char* (*)(nvmlReturn_t);
using NvmlGetHandleByStringFn = nvmlReturn_t (*)(const char*, nvmlDevice_t*);
using NvmlGetClockFn = nvmlReturn_t (*)(nvmlDevice_t, int, unsigned int*);
using NvmlGetTemperatureFn = nvmlReturn_t (*)(nvmlDevice_t, int, unsigned int*);
using NvmlGetPowerUsageFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned int*);  // milliwatts
using NvmlGetReasonsFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*);
using NvmlGetDriverVersionFn = nvmlReturn_t (*)(char*, unsigned int);

struct NvmlApi {
  void* library = nullptr;
  NvmlInitFn init = nullptr;                       // nvmlInit_v2
  NvmlShutdownFn shutdown = nullptr;               // nvmlShutdown
  NvmlErrorStringFn error_string = nullptr;        // nvmlErrorString
  NvmlGetHandleByStringFn handle_by_uuid = nullptr;      // nvmlDeviceGetHandleByUUID
  NvmlGetHandleByStringFn handle_by_pci = nullptr;       // nvmlDeviceGetHandleByPciBusId_v2
  NvmlGetClockFn clock_info = nullptr;             // nvmlDeviceGetClockInfo
  NvmlGetClockFn max_clock_info = nullptr;         // nvmlDeviceGetMaxClockInfo
  NvmlGetClockFn applications_clock = nullptr;     // nvmlDeviceGetApplicationsClock; may be null
  // nvmlDeviceGetDefaultApplicationsClock; may be null.
  NvmlGetClockFn default_applications_clock = nullptr;
  NvmlGetTemperatureFn temperature = nullptr;      // nvmlDeviceGetTemperature
  NvmlGetPowerUsageFn power_usage = nullptr;       // nvmlDeviceGetPowerUsage
  // nvmlDeviceGetCurrentClocksEventReasons, or the older ...ClocksThrottleReasons; may be null.
  NvmlGetReasonsFn clock_reasons = nullptr;
  NvmlGetDriverVersionFn driver_version = nullptr; // nvmlSystemGetDriverVersion
};

}  // namespace warpwatch::worker::detail

#endif  // WARPWATCH_WORKER_DEVICE_DETAIL_NVML_API_H_
