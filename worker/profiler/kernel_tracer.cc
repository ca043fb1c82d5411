// CUPTI activity tracing of kernels.
#include "worker/profiler/kernel_tracer.h"

#include <cstdlib>
#include <mutex>

#include "worker/profiler/detail/cupti_api.h"

namespace warpwatch::worker {
namespace {

using detail::CuptiApi;
using detail::CuptiStatus;

constexpr size_t kBufferBytes = 8 << 20;
constexpr size_t kAlign = 8;

// Shared with CUPTI's buffer callbacks, which may run on a CUPTI thread.
struct Shared {
  std::mutex mu;
  std::vector<KernelRecord> records;  // guarded by mu
  const CuptiApi* api = nullptr;      // set once before callbacks are registered
};

Shared& State() {
  static Shared* s = new Shared();
  return *s;
}

void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kAlign, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI BufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  Shared& s = State();
  std::vector<KernelRecord> got;
  CUpti_Activity* record = nullptr;
  while (s.api->cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
        record->kind != CUPTI_ACTIVITY_KIND_KERNEL) {
      continue;
    }
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    got.push_back(KernelRecord{k->name != nullptr ? k->name : "", k->start, k->end});
  }
  std::free(buffer);
  std::lock_guard<std::mutex> lock(s.mu);
  s.records.insert(s.records.end(), got.begin(), got.end());
}

}  // namespace

StatusOr<KernelTracer*> KernelTracer::Get() {
  static StatusOr<KernelTracer*>* tracer = [] {
    StatusOr<const CuptiApi*> api = detail::LoadCupti();
    if (!api.ok()) {
      return new StatusOr<KernelTracer*>(
          UnavailableError("kernel durations unavailable: " + api.status().message()));
    }
    State().api = *api;
    Status s =
        CuptiStatus(**api, (*api)->cuptiActivityRegisterCallbacks(BufferRequested, BufferCompleted),
                    "cuptiActivityRegisterCallbacks");
    if (!s.ok()) {
      return new StatusOr<KernelTracer*>(
          UnavailableError("kernel durations unavailable: " + s.message()));
    }
    return new StatusOr<KernelTracer*>(new KernelTracer());
  }();
  return *tracer;
}

Status KernelTracer::Start() {
  const CuptiApi& api = *State().api;
  {
    std::lock_guard<std::mutex> lock(State().mu);
    State().records.clear();
  }
  RETURN_IF_ERROR(CuptiStatus(api, api.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                              "cuptiActivityEnable(CONCURRENT_KERNEL)"));
  recording_ = true;
  return OkStatus();
}

StatusOr<std::vector<KernelRecord>> KernelTracer::Stop() {
  if (!recording_) return FailedPreconditionError("KernelTracer::Stop without Start");
  recording_ = false;
  const CuptiApi& api = *State().api;
  Status disabled =
      CuptiStatus(api, api.cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                  "cuptiActivityDisable(CONCURRENT_KERNEL)");
  RETURN_IF_ERROR(CuptiStatus(api, api.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED),
                              "cuptiActivityFlushAll"));
  RETURN_IF_ERROR(disabled);
  std::lock_guard<std::mutex> lock(State().mu);
  std::vector<KernelRecord> out;
  out.swap(State().records);
  return out;
}

}  // namespace warpwatch::worker
