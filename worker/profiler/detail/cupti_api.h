// The CUPTI entry points the range profiler and the kernel tracer use, looked up in libcupti at run time so the worker
// starts where CUPTI is absent. Types come from the toolkit's headers (present at build time).
#ifndef WARPWATCH_WORKER_PROFILER_DETAIL_CUPTI_API_H_
#define WARPWATCH_WORKER_PROFILER_DETAIL_CUPTI_API_H_

#include <cupti_activity.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <string>

#include "common/status/status.h"

namespace warpwatch::worker::detail {

#define WW_CUPTI_FUNCTIONS(X)                    \
  X(cuptiGetResultString)                        \
  X(cuptiProfilerInitialize)                     \
  X(cuptiDeviceGetChipName)                      \
  X(cuptiProfilerGetCounterAvailability)         \
  X(cuptiProfilerHostInitialize)                 \
  X(cuptiProfilerHostDeinitialize)               \
  X(cuptiProfilerHostConfigAddMetrics)           \
  X(cuptiProfilerHostGetConfigImageSize)         \
  X(cuptiProfilerHostGetConfigImage)             \
  X(cuptiProfilerHostEvaluateToGpuValues)        \
  X(cuptiRangeProfilerEnable)                    \
  X(cuptiRangeProfilerDisable)                   \
  X(cuptiRangeProfilerGetCounterDataSize)        \
  X(cuptiRangeProfilerCounterDataImageInitialize) \
  X(cuptiRangeProfilerSetConfig)                 \
  X(cuptiRangeProfilerStart)                     \
  X(cuptiRangeProfilerStop)                      \
  X(cuptiRangeProfilerPushRange)                 \
  X(cuptiRangeProfilerPopRange)                  \
  X(cuptiRangeProfilerDecodeData)                \
  X(cuptiRangeProfilerGetCounterDataInfo)        \
  X(cuptiActivityRegisterCallbacks)              \
  X(cuptiActivityEnable)                         \
  X(cuptiActivityDisable)                        \
  X(cuptiActivityFlushAll)                       \
  X(cuptiActivityGetNextRecord)

// Function pointers named after the entry points. Loaded once per process; never unloaded.
struct CuptiApi {
#define WW_CUPTI_MEMBER(name) decltype(&::name) name = nullptr;
  WW_CUPTI_FUNCTIONS(WW_CUPTI_MEMBER)
#undef WW_CUPTI_MEMBER
  // Optional: null when this CUPTI lacks it (range names are then unknown).
  decltype(&::cuptiRangeProfilerCounterDataGetRangeInfo) cuptiRangeProfilerCounterDataGetRangeInfo =
      nullptr;
};

// Loads libcupti.so.13 (the loader's path, then the toolkit's lib64 and extras/CUPTI/lib64).
// UNAVAILABLE "counters unavailable: ..." when it or an entry point is missing.
StatusOr<const CuptiApi*> LoadCupti();

// Status for a CUPTI result: OK, PERMISSION_DENIED for the privilege errors (the message names
// ERR_NVGPUCTRPERM and how to allow profiling), else INTERNAL "call: CUPTI_ERROR_...".
Status CuptiStatus(const CuptiApi& api, CUptiResult result, const char* call);

}  // namespace warpwatch::worker::detail

#endif  // WARPWATCH_WORKER_PROFILER_DETAIL_CUPTI_API_H_
