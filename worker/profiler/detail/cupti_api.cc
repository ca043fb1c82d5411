// Run-time loading of CUPTI.
#include "worker/profiler/detail/cupti_api.h"

#include <dlfcn.h>

#include <mutex>

namespace warpwatch::worker::detail {
namespace {

// CUPTI's profiler opens libnvperf_host/libnvperf_target by name; the toolkit's lib64 is often
// not on the loader's path, so load them from CUPTI's own directory first (same soname: CUPTI's
// later dlopen finds them loaded). Failures are left for CUPTI to report.
void PreloadNvperf(void* cupti) {
  void* symbol = ::dlsym(cupti, "cuptiGetResultString");
  Dl_info info;
  if (symbol == nullptr || ::dladdr(symbol, &info) == 0 || info.dli_fname == nullptr) return;
  std::string dir = info.dli_fname;
  size_t slash = dir.rfind('/');
  if (slash == std::string::npos) return;
  dir.resize(slash + 1);
  for (const char* name : {"libnvperf_host.so", "libnvperf_target.so"}) {
    if (::dlopen((dir + name).c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) (void)::dlerror();
  }
}

struct Loaded {
  CuptiApi api;
  Status status;
};

Loaded* LoadOnce() {
  auto* loaded = new Loaded();  // never destroyed: CUPTI stays loaded for the process
  const char* kPaths[] = {
      "libcupti.so.13",
      "/usr/local/cuda/lib64/libcupti.so.13",
      "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13",
  };
  void* lib = nullptr;
  std::string errors;
  for (const char* path : kPaths) {
    lib = ::dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (lib != nullptr) break;
    const char* why = ::dlerror();
    errors += std::string(errors.empty() ? "" : "; ") + (why ? why : path);
  }
  if (lib == nullptr) {
    loaded->status = UnavailableError("counters unavailable: cannot load CUPTI: " + errors);
    return loaded;
  }
  PreloadNvperf(lib);
#define WW_CUPTI_LOAD(name)                                                                 \
  loaded->api.name = reinterpret_cast<decltype(&::name)>(::dlsym(lib, #name));             \
  if (loaded->api.name == nullptr) {                                                        \
    loaded->status = UnavailableError("counters unavailable: libcupti lacks " #name         \
                                      " (CUPTI older than CUDA 13's range profiler?)");     \
    return loaded;                                                                          \
  }
  WW_CUPTI_FUNCTIONS(WW_CUPTI_LOAD)
#undef WW_CUPTI_LOAD
  loaded->api.cuptiRangeProfilerCounterDataGetRangeInfo =
      reinterpret_cast<decltype(&::cuptiRangeProfilerCounterDataGetRangeInfo)>(
          ::dlsym(lib, "cuptiRangeProfilerCounterDataGetRangeInfo"));
  return loaded;
}

}  // namespace

StatusOr<const CuptiApi*> LoadCupti() {
  static Loaded* loaded = LoadOnce();  // thread-safe static init
  if (!loaded->status.ok()) return loaded->status;
  return &loaded->api;
}

Status CuptiStatus(const CuptiApi& api, CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return OkStatus();
  const char* text = nullptr;
  if (api.cuptiGetResultString != nullptr) api.cuptiGetResultString(result, &text);
  std::string what = std::string(call) + ": " + (text ? text : "CUPTI error") + " (" +
                     std::to_string(static_cast<int>(result)) + ")";
  if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
      result == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES) {
    return PermissionDeniedError(
        "counters unavailable: profiling not permitted (ERR_NVGPUCTRPERM): " + what +
        "; run as root or load nvidia with NVreg_RestrictProfilingToAdminUsers=0");
  }
  return InternalError(what);
}

}  // namespace warpwatch::worker::detail
