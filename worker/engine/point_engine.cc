// Opening a device for measurement and measuring one point on it.
#include "worker/engine/point_engine.h"

#include <google/protobuf/util/time_util.h>

#include "common/catalog/catalog.h"
#include "kernels/core/cuda_check.h"
#include "kernels/core/family.h"
#include "worker/engine/case_sampler.h"
#include "worker/engine/detail/run_environment.h"
#include "worker/engine/sample_summary.h"
#include "worker/occupancy/occupancy_report.h"

namespace warpwatch::worker {
namespace {

constexpr const char* kNotBuilt = "family not implemented in this worker build";

// Records `status` as the point's failure; checks whether the context is now unusable.
PointResult Failed(const Status& status, PointResult r) {
  r.measurement.set_status(v1::POINT_STATUS_FAILED);
  r.measurement.set_error(status.ToString());
  bool poisoned = status.code() == StatusCode::kAborted;
  // A family may have reported a sticky fault as another code, or not at all yet: ask CUDA.
  cudaError_t err = cudaDeviceSynchronize();
  if (kernels::IsStickyCudaError(err)) poisoned = true;
  if (err != cudaSuccess && !poisoned) (void)cudaGetLastError();
  r.context_poisoned = poisoned;
  return r;
}

}  // namespace

StatusOr<std::unique_ptr<PointEngine>> PointEngine::Open(int ordinal) {
  ASSIGN_OR_RETURN(int count, CudaDeviceCount());
  if (ordinal < 0 || ordinal >= count) {
    return UnavailableError("no CUDA device " + std::to_string(ordinal) + " (this host has " +
                            std::to_string(count) + ")");
  }
  CUDA_RETURN_IF_ERROR(cudaSetDevice(ordinal));
  auto e = std::unique_ptr<PointEngine>(new PointEngine());
  ASSIGN_OR_RETURN(e->info_, QueryDevice(ordinal, nullptr));
  std::string nvml_note;
  ASSIGN_OR_RETURN(e->telemetry_, OpenTelemetry(e->info_.device, &nvml_note));
  // Re-read with the telemetry's max clocks (NVML knows them better than CUDA's attributes).
  ASSIGN_OR_RETURN(e->info_, QueryDevice(ordinal, e->telemetry_.get()));
  CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&e->stream_, cudaStreamNonBlocking));
  ASSIGN_OR_RETURN(e->flusher_, L2Flusher::Create(e->info_.prop.l2CacheSize));
  e->environment_ = detail::BuildRunEnvironment(e->info_.device, *e->telemetry_);
  return e;
}

PointEngine::~PointEngine() {
  profiler_.reset();
  flusher_.reset();
  if (stream_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaStreamDestroy(stream_));
}

CounterProfiler* PointEngine::Profiler() {
  if (!profiler_tried_) {
    profiler_tried_ = true;
    StatusOr<std::unique_ptr<CounterProfiler>> p = OpenCuptiProfiler(info_.device.index());
    if (p.ok()) {
      profiler_ = std::move(p).value();
    } else {
      profiler_note_ = p.status().message();
      environment_.set_counters_note(profiler_note_);
    }
  }
  return profiler_.get();
}

PointResult PointEngine::Measure(const catalog::Point& point, const EngineSettings& settings) {
  PointResult r;
  v1::Measurement& m = r.measurement;
  m.mutable_case_()->set_family(point.family);
  m.mutable_case_()->set_variant(point.variant);
  for (const auto& [k, v] : point.params) (*m.mutable_case_()->mutable_params())[k] = v;
  m.mutable_case_()->set_canonical(point.Canonical());
  *m.mutable_measured_at() = google::protobuf::util::TimeUtil::GetCurrentTime();

  const kernels::Family* family = kernels::FindImplementation(point.family);
  if (family == nullptr) {
    m.set_status(v1::POINT_STATUS_SKIPPED);
    m.set_error(kNotBuilt);
    return r;
  }
  StatusOr<std::unique_ptr<kernels::Case>> made = family->MakeCase(point, info_.prop);
  if (!made.ok()) {
    if (made.status().code() == StatusCode::kFailedPrecondition) {
      m.set_status(v1::POINT_STATUS_SKIPPED);
      m.set_error(made.status().message());
    } else {
      return Failed(made.status().Annotate("MakeCase"), std::move(r));
    }
    return r;
  }
  kernels::Case& c = **made;
  Status s = c.Setup(stream_);
  if (!s.ok()) return Failed(s.Annotate("Setup"), std::move(r));

  kernels::LaunchShape shape = c.Shape();
  m.set_kernel_name(shape.kernel_name);
  if (shape.function != nullptr) {
    StatusOr<v1::Occupancy> occ = TheoreticalOccupancy(shape, info_.prop);
    if (!occ.ok()) return Failed(occ.status().Annotate("occupancy"), std::move(r));
    *m.mutable_occupancy() = *occ;
  }

  // Correctness before timing.
  s = c.Reset(stream_);
  if (s.ok()) s = c.Run(stream_);
  if (s.ok()) {
    cudaError_t err = cudaStreamSynchronize(stream_);
    if (err != cudaSuccess) s = kernels::CudaError(err, "first Run", __FILE__, __LINE__);
  }
  if (!s.ok()) return Failed(s.Annotate("first run"), std::move(r));
  kernels::VerifyResult verify = c.Verify(stream_);
  m.set_max_error(verify.max_error);
  if (!verify.status.ok()) {
    m.set_verified(false);
    return Failed(verify.status.Annotate("verification failed"), std::move(r));
  }
  m.set_verified(true);

  for (int i = 0; i < settings.warmup_runs && s.ok(); ++i) {
    s = c.Reset(stream_);
    if (s.ok()) s = c.Run(stream_);
  }
  if (s.ok()) {
    cudaError_t err = cudaStreamSynchronize(stream_);
    if (err != cudaSuccess) s = kernels::CudaError(err, "warm-up", __FILE__, __LINE__);
  }
  if (!s.ok()) return Failed(s.Annotate("warm-up"), std::move(r));

  const bool cold = settings.l2_flush && !c.hot();
  StatusOr<std::unique_ptr<CaseSampler>> sampler =
      CaseSampler::Create(&c, stream_, cold ? flusher_.get() : nullptr, telemetry_.get());
  if (!sampler.ok()) return Failed(sampler.status(), std::move(r));
  SamplingResult sampling = SampleUntilStable(**sampler, settings.stop, SteadyWallClock());
  if (!sampling.status.ok()) return Failed(sampling.status.Annotate("sampling"), std::move(r));

  SampleContext context;
  context.clocks_mhz = (*sampler)->clocks_mhz();
  context.reasons = (*sampler)->throttle_reasons();
  kernels::Work work = c.work();
  context.bytes = work.bytes;
  context.flops = work.flops;
  context.peak_bytes_per_second = info_.device.theoretical_bandwidth_bytes_per_second();
  SummarizeSamples(sampling, context, &m);
  m.set_l2_flushed(cold);

  if (settings.collect_counters) {
    const catalog::FamilyInfo* info = catalog::FindFamily(point.family);
    std::vector<std::string> metrics;
    if (info != nullptr) metrics = info->counters;
    CounterProfiler* profiler = Profiler();
    if (shape.function == nullptr) {
      m.set_counters_note("counters unavailable: the timed region launches no kernel of ours");
    } else if (profiler == nullptr) {
      m.set_counters_note(profiler_note_);
    } else {
      StatusOr<std::map<std::string, double>> counters = profiler->Collect(c, stream_, metrics);
      if (counters.ok()) {
        for (const auto& [name, value] : *counters) (*m.mutable_counters())[name] = value;
        auto it = counters->find(catalog::kAchievedOccupancyCounter);
        if (it != counters->end()) m.mutable_occupancy()->set_achieved(it->second / 100.0);
      } else if (counters.status().code() == StatusCode::kPermissionDenied) {
        // Not permitted now means not permitted for the rest of the run.
        profiler_note_ = counters.status().message();
        environment_.set_counters_note(profiler_note_);
        profiler_.reset();
        m.set_counters_note(profiler_note_);
      } else {
        m.set_counters_note("counters unavailable: " + counters.status().message());
        cudaError_t err = cudaDeviceSynchronize();
        if (kernels::IsStickyCudaError(err)) r.context_poisoned = true;
      }
    }
  }
  m.set_status(v1::POINT_STATUS_OK);
  return r;
}

}  // namespace warpwatch::worker
