// CounterProfiler on CUPTI's range profiler (CUDA 13 host + range profiler API), auto range (one
// range per kernel) and user replay: each pass restores the case's input, flushes L2 and runs it.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "worker/profiler/counter_profiler.h"
#include "worker/profiler/detail/cupti_api.h"

namespace warpwatch::worker {
namespace {

using detail::CuptiApi;
using detail::CuptiStatus;

constexpr int kMaxPasses = 64;
// Kernels one Run() may launch (one auto range each).
constexpr int kMaxRanges = 32;

// A zeroed CUPTI parameter struct with its size set, as every CUPTI call expects.
template <typename P>
P Params(size_t struct_size) {
  P p;
  std::memset(&p, 0, sizeof p);
  p.structSize = struct_size;
  return p;
}

#define CUPTI_RETURN_IF_ERROR(api, call, params) \
  RETURN_IF_ERROR(CuptiStatus(api, (api).call(&(params)), #call))

// The current CUDA context, through the runtime's driver entry points (no libcuda link).
StatusOr<CUcontext> CurrentContext() {
  using CtxGetCurrentFn = CUresult (*)(CUcontext*);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found;
  CUDA_RETURN_IF_ERROR(
      cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &found));
  if (fn == nullptr || found != cudaDriverEntryPointSuccess) {
    return UnavailableError("counters unavailable: no cuCtxGetCurrent entry point");
  }
  CUcontext ctx = nullptr;
  if (reinterpret_cast<CtxGetCurrentFn>(fn)(&ctx) != 0 || ctx == nullptr) {
    return UnavailableError("counters unavailable: no current CUDA context");
  }
  return ctx;
}

// A host object with its deinitialisation.
class HostObject {
 public:
  HostObject(const CuptiApi& api, CUpti_Profiler_Host_Object* object) : api_(api), object_(object) {}
  ~HostObject() {
    auto p = Params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = object_;
    api_.cuptiProfilerHostDeinitialize(&p);
  }
  CUpti_Profiler_Host_Object* get() const { return object_; }

 private:
  const CuptiApi& api_;
  CUpti_Profiler_Host_Object* object_;
};

class RangeObject {
 public:
  RangeObject(const CuptiApi& api, CUpti_RangeProfiler_Object* object) : api_(api), object_(object) {}
  ~RangeObject() {
    auto p = Params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = object_;
    api_.cuptiRangeProfilerDisable(&p);
  }
  CUpti_RangeProfiler_Object* get() const { return object_; }

 private:
  const CuptiApi& api_;
  CUpti_RangeProfiler_Object* object_;
};

class CuptiRangeProfiler : public CounterProfiler {
 public:
  CuptiRangeProfiler(const CuptiApi& api, CUcontext ctx, std::string chip,
                     std::vector<uint8_t> availability)
      : api_(api), ctx_(ctx), chip_(std::move(chip)), availability_(std::move(availability)) {}

  StatusOr<std::vector<LaunchCounters>> Collect(kernels::Case& c, cudaStream_t stream,
                                                const std::vector<std::string>& metrics,
                                                L2Flusher* flusher) override {
    std::vector<const char*> names;
    for (const std::string& m : metrics) {
      ASSIGN_OR_RETURN(bool supported, Supported(m));
      if (supported) names.push_back(m.c_str());
    }
    std::vector<LaunchCounters> values;
    if (names.empty()) return values;

    ASSIGN_OR_RETURN(std::unique_ptr<HostObject> host, NewHost());
    ASSIGN_OR_RETURN(std::vector<uint8_t> config, ConfigImage(*host, names));

    auto enable = Params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    enable.ctx = ctx_;
    CUPTI_RETURN_IF_ERROR(api_, cuptiRangeProfilerEnable, enable);
    RangeObject range(api_, enable.pRangeProfilerObject);

    auto size = Params<CUpti_RangeProfiler_GetCounterDataSize_Params>(CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
    size.pRangeProfilerObject = range.get();
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = kMaxRanges;
    size.maxNumRangeTreeNodes = kMaxRanges;
    CUPTI_RETURN_IF_ERROR(api_, cuptiRangeProfilerGetCounterDataSize, size);
    std::vector<uint8_t> data(size.counterDataSize, 0);
    auto init = Params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    init.pRangeProfilerObject = range.get();
    init.pCounterData = data.data();
    init.counterDataSize = data.size();
    CUPTI_RETURN_IF_ERROR(api_, cuptiRangeProfilerCounterDataImageInitialize, init);

    auto set = Params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    set.pRangeProfilerObject = range.get();
    set.pConfig = config.data();
    set.configSize = config.size();
    set.pCounterDataImage = data.data();
    set.counterDataImageSize = data.size();
    set.range = CUPTI_AutoRange;
    set.replayMode = CUPTI_UserReplay;
    set.maxRangesPerPass = kMaxRanges;
    set.numNestingLevels = 1;
    set.minNestingLevel = 1;
    set.passIndex = 0;
    set.targetNestingLevel = 1;
    CUPTI_RETURN_IF_ERROR(api_, cuptiRangeProfilerSetConfig, set);

    RETURN_IF_ERROR(RunPasses(range, c, stream, flusher));

    auto decode = Params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
    decode.pRangeProfilerObject = range.get();
    CUPTI_RETURN_IF_ERROR(api_, cuptiRangeProfilerDecodeData, decode);
    auto info = Params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
    info.pCounterDataImage = data.data();
    info.counterDataImageSize = data.size();
    CUPTI_RETURN_IF_ERROR(api_, cuptiRangeProfilerGetCounterDataInfo, info);
    if (info.numTotalRanges == 0) return InternalError("CUPTI recorded no kernel range");
    for (size_t r = 0; r < info.numTotalRanges; ++r) {
      std::vector<double> out(names.size(), 0.0);
      auto eval = Params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
      eval.pHostObject = host->get();
      eval.pCounterDataImage = data.data();
      eval.counterDataImageSize = data.size();
      eval.ppMetricNames = names.data();
      eval.numMetrics = names.size();
      eval.rangeIndex = r;
      eval.pMetricValues = out.data();
      CUPTI_RETURN_IF_ERROR(api_, cuptiProfilerHostEvaluateToGpuValues, eval);
      LaunchCounters launch;
      launch.range_name = RangeName(data, r);
      for (size_t i = 0; i < names.size(); ++i) launch.values[names[i]] = out[i];
      values.push_back(std::move(launch));
    }
    return values;
  }

 private:
  // The name CUPTI gave range `index` (an auto range's: its kernel); empty when unknown.
  std::string RangeName(const std::vector<uint8_t>& data, size_t index) {
    if (api_.cuptiRangeProfilerCounterDataGetRangeInfo == nullptr) return "";
    auto p = Params<CUpti_RangeProfiler_CounterData_GetRangeInfo_Params>(
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE);
    p.pCounterDataImage = data.data();
    p.counterDataImageSize = data.size();
    p.rangeIndex = index;
    p.rangeDelimiter = "/";
    if (api_.cuptiRangeProfilerCounterDataGetRangeInfo(&p) != CUPTI_SUCCESS) return "";
    return p.rangeName != nullptr ? p.rangeName : "";
  }

  StatusOr<std::unique_ptr<HostObject>> NewHost() {
    auto p = Params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip_.c_str();
    p.pCounterAvailabilityImage = availability_.data();
    CUPTI_RETURN_IF_ERROR(api_, cuptiProfilerHostInitialize, p);
    return std::make_unique<HostObject>(api_, p.pHostObject);
  }

  StatusOr<std::vector<uint8_t>> ConfigImage(HostObject& host, std::vector<const char*>& names) {
    auto add = Params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    add.pHostObject = host.get();
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    CUPTI_RETURN_IF_ERROR(api_, cuptiProfilerHostConfigAddMetrics, add);
    auto size = Params<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    size.pHostObject = host.get();
    CUPTI_RETURN_IF_ERROR(api_, cuptiProfilerHostGetConfigImageSize, size);
    std::vector<uint8_t> image(size.configImageSize);
    auto get = Params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    get.pHostObject = host.get();
    get.pConfigImage = image.data();
    get.configImageSize = image.size();
    CUPTI_RETURN_IF_ERROR(api_, cuptiProfilerHostGetConfigImage, get);
    return image;
  }

  // Whether the chip knows `metric` (cached): a config with that metric alone can be built.
  StatusOr<bool> Supported(const std::string& metric) {
    auto it = supported_.find(metric);
    if (it != supported_.end()) return it->second;
    ASSIGN_OR_RETURN(std::unique_ptr<HostObject> host, NewHost());
    std::vector<const char*> one = {metric.c_str()};
    bool ok = ConfigImage(*host, one).ok();
    supported_[metric] = ok;
    return ok;
  }

  Status RunPasses(RangeObject& range, kernels::Case& c, cudaStream_t stream,
                   L2Flusher* flusher) {
    for (int pass = 0; pass < kMaxPasses; ++pass) {
      // Every pass starts as a timed sample does: input restored, then L2 flushed clean.
      RETURN_IF_ERROR(c.Reset(stream));
      if (flusher != nullptr) RETURN_IF_ERROR(flusher->Flush(stream));
      CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
      auto start = Params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
      start.pRangeProfilerObject = range.get();
      CUPTI_RETURN_IF_ERROR(api_, cuptiRangeProfilerStart, start);
      Status run = c.Run(stream);
      cudaError_t synced = cudaStreamSynchronize(stream);
      auto stop = Params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
      stop.pRangeProfilerObject = range.get();
      CUPTI_RETURN_IF_ERROR(api_, cuptiRangeProfilerStop, stop);
      RETURN_IF_ERROR(run);
      CUDA_RETURN_IF_ERROR(synced);
      if (stop.isAllPassSubmitted) return OkStatus();
    }
    return InternalError("CUPTI needed more than " + std::to_string(kMaxPasses) + " passes");
  }

  const CuptiApi& api_;
  CUcontext ctx_;
  std::string chip_;
  std::vector<uint8_t> availability_;
  std::map<std::string, bool> supported_;
};

}  // namespace

StatusOr<std::unique_ptr<CounterProfiler>> OpenCuptiProfiler(int device_ordinal) {
  ASSIGN_OR_RETURN(const CuptiApi* api, detail::LoadCupti());
  ASSIGN_OR_RETURN(CUcontext ctx, CurrentContext());
  auto init = Params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  Status s = CuptiStatus(*api, api->cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
  if (!s.ok()) return s.code() == StatusCode::kPermissionDenied ? s : s.Annotate("counters unavailable");

  auto chip = Params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<size_t>(device_ordinal);
  s = CuptiStatus(*api, api->cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
  if (!s.ok()) return s.code() == StatusCode::kPermissionDenied ? s : s.Annotate("counters unavailable");

  auto avail = Params<CUpti_Profiler_GetCounterAvailability_Params>(CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  avail.ctx = ctx;
  s = CuptiStatus(*api, api->cuptiProfilerGetCounterAvailability(&avail),
                  "cuptiProfilerGetCounterAvailability");
  if (!s.ok()) return s.code() == StatusCode::kPermissionDenied ? s : s.Annotate("counters unavailable");
  std::vector<uint8_t> image(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = image.data();
  s = CuptiStatus(*api, api->cuptiProfilerGetCounterAvailability(&avail),
                  "cuptiProfilerGetCounterAvailability");
  if (!s.ok()) return s.code() == StatusCode::kPermissionDenied ? s : s.Annotate("counters unavailable");
  return std::unique_ptr<CounterProfiler>(
      new CuptiRangeProfiler(*api, ctx, chip.pChipName, std::move(image)));
}

}  // namespace warpwatch::worker
