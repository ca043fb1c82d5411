// Opening a device for measurement and measuring one point on it.
#include "worker/engine/point_engine.h"

#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <cstdlib>

#include "common/catalog/catalog.h"
#include "kernels/core/cuda_architectures.h"
#include "kernels/core/cuda_check.h"
#include "worker/device/nvml_topology.h"
#include "worker/engine/case_sampler.h"
#include "worker/engine/counter_pass.h"
#include "worker/engine/detail/run_environment.h"
#include "worker/engine/duration_pass.h"
#include "worker/engine/kernel_symbols.h"
#include "worker/engine/sample_summary.h"
#include "worker/occupancy/occupancy_report.h"
#include "worker/stats/clock_estimate.h"
#include "worker/stats/sample_stats.h"

namespace warpwatch::worker {
namespace {

constexpr const char* kNotBuilt = "family not implemented in this worker build";
// The blocking kernel gives up after this long: enqueueing a sample takes microseconds, so only a
// Run() that waits for the host ever reaches it.
constexpr unsigned long long kBlockerTimeoutNs = 500'000'000ull;

// Nsight Compute and Nsight Systems inject themselves through CUDA_INJECTION64_PATH. A profiler
// that serialises launches (ncu replays each kernel inside cudaLaunchKernel) would wait for the
// blocking kernel while the blocking kernel waits for the host: no blocker then.
bool UnderProfiler() { return std::getenv("CUDA_INJECTION64_PATH") != nullptr; }

// Records `status` as the point's failure; checks whether the context is now unusable.
PointResult Failed(const Status& status, PointResult r) {
  r.measurement.set_status(v1::POINT_STATUS_FAILED);
  r.measurement.set_error(status.ToString());
  // A family may have reported a sticky fault as another code, or not at all yet: ask CUDA (an
  // error that survives a second synchronisation poisons the context whatever its code).
  const bool poisoned = kernels::IsContextPoisoned();
  r.context_poisoned = poisoned || status.code() == StatusCode::kAborted;
  return r;
}

// Only MakeCase's FAILED_PRECONDITION means "impossible here, skip"; later ones are failures.
Status NotASkip(Status s) {
  if (s.code() != StatusCode::kFailedPrecondition) return s;
  return InternalError(s.message());
}

PointResult Skipped(const std::string& why, PointResult r) {
  r.measurement.set_status(v1::POINT_STATUS_SKIPPED);
  r.measurement.set_error(why);
  return r;
}

// Each group's share of the stopping rule's budget (the noise target stays whole).
StopSettings GroupShare(const StopSettings& s, int groups) {
  StopSettings g = s;
  g.min_gpu_time_seconds = s.min_gpu_time_seconds / groups;
  g.max_samples = std::max(s.min_samples, s.max_samples / groups);
  g.timeout_seconds = s.timeout_seconds / groups;
  return g;
}

// (max - min) / median of the groups' medians; 0 for one group.
double GroupMedianSpread(const std::vector<double>& samples, const std::vector<int>& group,
                         int groups) {
  if (groups < 2) return 0;
  std::vector<double> medians;
  for (int g = 0; g < groups; ++g) {
    std::vector<double> mine;
    for (size_t i = 0; i < samples.size(); ++i) {
      if (group[i] == g) mine.push_back(samples[i]);
    }
    if (!mine.empty()) medians.push_back(Percentile(mine, 50));
  }
  if (medians.size() < 2) return 0;
  auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
  const double mid = Percentile(medians, 50);
  return mid > 0 ? (*hi - *lo) / mid : 0;
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
  ASSIGN_OR_RETURN(e->blocker_, LaunchBlocker::Create(kBlockerTimeoutNs));
  ASSIGN_OR_RETURN(e->stamps_, ClockStamps::Create(e->info_.prop.multiProcessorCount));
  ASSIGN_OR_RETURN(KernelName stamp, NameOfKernel(ClockStamps::Kernel()));
  e->stamp_symbol_ = stamp.mangled;
  e->environment_ = detail::BuildRunEnvironment(e->info_.device, *e->telemetry_);
  AddNodeTopology(&e->environment_);
  return e;
}

PointEngine::~PointEngine() {
  profiler_.reset();
  flusher_.reset();
  blocker_.reset();
  stamps_.reset();
  if (stream_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaStreamDestroy(stream_));
}

Status PointEngine::IgnoreKernelInTraces(const void* kernel) {
  ASSIGN_OR_RETURN(KernelName name, NameOfKernel(kernel));
  foreign_symbols_.push_back(name.mangled);
  return OkStatus();
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

StatusOr<std::unique_ptr<kernels::Case>> PointEngine::PrepareCase(const catalog::Point& point,
                                                                  const EngineSettings& settings,
                                                                  v1::Measurement* m) {
  const kernels::Family* family = kernels::FindImplementation(point.family);
  if (family == nullptr) return FailedPreconditionError(kNotBuilt);
  StatusOr<std::unique_ptr<kernels::Case>> made = family->MakeCase(point, info_.prop);
  if (!made.ok()) {
    if (made.status().code() == StatusCode::kFailedPrecondition) return made.status();
    return made.status().Annotate("MakeCase");
  }
  kernels::Case& c = **made;
  RETURN_IF_ERROR(NotASkip(c.Setup(stream_)).Annotate("Setup"));
  // A GPU this worker carries no code for: SKIPPED with the reason, not a failed launch.
  if (const void* f = c.Shape().function; f != nullptr) {
    RETURN_IF_ERROR(kernels::RequireKernelImage(f, info_.prop));
  }
  // Correctness before timing.
  Status s = c.Reset(stream_);
  if (s.ok()) s = c.Run(stream_);
  if (s.ok()) {
    cudaError_t err = cudaStreamSynchronize(stream_);
    if (err != cudaSuccess) s = kernels::CudaError(err, "first Run", __FILE__, __LINE__);
  }
  RETURN_IF_ERROR(NotASkip(s).Annotate("first run"));
  kernels::VerifyResult verify = c.Verify(stream_);
  m->set_max_error(std::max(m->max_error(), verify.max_error));
  if (!verify.status.ok()) {
    m->set_verified(false);
    return NotASkip(verify.status).Annotate("verification failed");
  }
  m->set_verified(true);
  for (int i = 0; i < settings.warmup_runs && s.ok(); ++i) {
    s = c.Reset(stream_);
    if (s.ok()) s = c.Run(stream_);
  }
  if (s.ok()) {
    cudaError_t err = cudaStreamSynchronize(stream_);
    if (err != cudaSuccess) s = kernels::CudaError(err, "warm-up", __FILE__, __LINE__);
  }
  RETURN_IF_ERROR(NotASkip(s).Annotate("warm-up"));
  return made;
}

PointResult PointEngine::Measure(const catalog::Point& point, const EngineSettings& settings) {
  WallClock& clock = SteadyWallClock();
  const double start = clock.NowSeconds();
  v1::PointWallTime wall;
  PointResult r = MeasureTimed(point, settings, clock, &wall);
  wall.set_total_seconds(clock.NowSeconds() - start);
  *r.measurement.mutable_wall_time() = wall;
  return r;
}

PointResult PointEngine::MeasureTimed(const catalog::Point& point, const EngineSettings& settings,
                                      WallClock& clock, v1::PointWallTime* wall) {
  PointResult r;
  v1::Measurement& m = r.measurement;
  m.mutable_case_()->set_family(point.family);
  m.mutable_case_()->set_variant(point.variant);
  for (const auto& [k, v] : point.params) (*m.mutable_case_()->mutable_params())[k] = v;
  m.mutable_case_()->set_canonical(point.Canonical());
  *m.mutable_measured_at() = google::protobuf::util::TimeUtil::GetCurrentTime();

  double phase_start = clock.NowSeconds();
  StatusOr<std::unique_ptr<kernels::Case>> first = PrepareCase(point, settings, &m);
  wall->set_setup_seconds(clock.NowSeconds() - phase_start);
  if (!first.ok()) {
    if (first.status().code() == StatusCode::kFailedPrecondition) {
      return Skipped(first.status().message(), std::move(r));
    }
    return Failed(first.status(), std::move(r));
  }
  std::unique_ptr<kernels::Case> current = std::move(first).value();

  kernels::LaunchShape shape = current->Shape();
  if (shape.function != nullptr) {
    StatusOr<v1::Occupancy> occ = TheoreticalOccupancy(shape, info_.prop);
    if (!occ.ok()) return Failed(occ.status().Annotate("occupancy"), std::move(r));
    *m.mutable_occupancy() = *occ;
    // The real symbol, even when CUPTI is absent; the duration pass names every kernel.
    StatusOr<KernelName> name = NameOfKernel(shape.function);
    if (!name.ok()) return Failed(name.status().Annotate("kernel name"), std::move(r));
    v1::KernelInfo* k = m.add_kernels();
    k->set_name(name->name);
    k->set_demangled(name->demangled);
    k->set_mangled(name->mangled);
    m.set_kernel_name(name->name);
  }

  const bool cold = settings.l2_flush && !current->hot();
  SamplerTools tools;
  tools.flusher = cold ? flusher_.get() : nullptr;
  tools.blocker = current->host_synchronous() || UnderProfiler() ? nullptr : blocker_.get();
  tools.stamps = stamps_.get();
  tools.telemetry = telemetry_.get();
  StatusOr<std::unique_ptr<CaseSampler>> sampler =
      CaseSampler::Create(current.get(), stream_, tools);
  if (!sampler.ok()) return Failed(sampler.status(), std::move(r));

  // Sampling, in groups on fresh allocations. The previous group's case is destroyed only once
  // the next one holds its buffers, so the new buffers cannot reuse the old addresses.
  const int groups = std::clamp(settings.sample_groups, 1, kMaxSampleGroups);
  const StopSettings share = GroupShare(settings.stop, groups);
  SamplingResult sampling;
  std::vector<int> group_of;
  for (int g = 0; g < groups; ++g) {
    std::unique_ptr<kernels::Case> previous;
    if (g > 0) {
      phase_start = clock.NowSeconds();
      StatusOr<std::unique_ptr<kernels::Case>> fresh = PrepareCase(point, settings, &m);
      wall->set_setup_seconds(wall->setup_seconds() + clock.NowSeconds() - phase_start);
      if (!fresh.ok())
        return Failed(fresh.status().Annotate("group " + std::to_string(g)), std::move(r));
      previous = std::move(current);
      current = std::move(fresh).value();
      (*sampler)->SetCase(current.get());
    }
    phase_start = clock.NowSeconds();
    SamplingResult part = SampleUntilStable(**sampler, groups > 1 ? share : settings.stop, clock);
    wall->set_sampling_seconds(wall->sampling_seconds() + clock.NowSeconds() - phase_start);
    previous.reset();
    sampling.samples.insert(sampling.samples.end(), part.samples.begin(), part.samples.end());
    group_of.insert(group_of.end(), part.samples.size(), g);
    sampling.stop_reason = part.stop_reason;
    if (!part.status.ok()) {
      return Failed(part.status.Annotate("sampling"), std::move(r));
    }
  }
  sampling.rel_stddev = RelativeStandardDeviation(sampling.samples);
  sampling.rel_stderr = RelativeStandardError(sampling.samples);

  SampleContext context;
  context.clocks_mhz = EstimateSampleClocksMhz((*sampler)->stamp_cycles(), (*sampler)->stamp_ns());
  context.reasons = (*sampler)->throttle_reasons();
  kernels::Work work = current->work();
  context.bytes = work.bytes;
  context.flops = work.flops;
  context.bus_bytes = work.bus_bytes;
  context.peak_bytes_per_second = info_.device.theoretical_bandwidth_bytes_per_second();
  // Judged against the clock the GPU is set to run at now, not its maximum: a fleet that locks or
  // sets application clocks is not throttled at its setting.
  context.setting_clock_mhz = telemetry_->ReadClockSetting().sm_clock_mhz;
  SummarizeSamples(sampling, context, &m);
  m.set_l2_flushed(cold);
  if (groups > 1) {
    m.set_sample_groups(groups);
    for (int g : group_of) m.add_sample_group(g);
    m.set_group_median_spread(GroupMedianSpread(sampling.samples, group_of, groups));
  }

  std::vector<std::string> traced_launches;  // one Run()'s kernel symbols, in launch order
  if (settings.kernel_durations) {
    phase_start = clock.NowSeconds();
    StatusOr<std::unique_ptr<CaseSampler>> traced =
        CaseSampler::Create(current.get(), stream_, tools);
    Status d = traced.ok() ? RunDurationPass(**traced, settings.duration_samples, stamp_symbol_,
                                             foreign_symbols_, &m, &traced_launches)
                           : traced.status();
    if (!d.ok()) {
      m.set_duration_note("kernel durations unavailable: " + d.message());
      if (kernels::IsContextPoisoned()) r.context_poisoned = true;
    }
    // A region that is more than its kernels differs from their time by design: not a flag.
    const catalog::FamilyInfo* info = catalog::FindFamily(point.family);
    if (info != nullptr && !info->timed_region.empty()) m.set_times_disagree(false);
    wall->set_duration_pass_seconds(clock.NowSeconds() - phase_start);
  }

  if (settings.collect_counters) {
    phase_start = clock.NowSeconds();
    CollectCounters(point, *current, cold, traced_launches, &r);
    wall->set_counter_pass_seconds(clock.NowSeconds() - phase_start);
  }
  m.set_status(v1::POINT_STATUS_OK);
  return r;
}

void PointEngine::CollectCounters(const catalog::Point& point, kernels::Case& c, bool cold,
                                  const std::vector<std::string>& traced_launches, PointResult* r) {
  v1::Measurement& m = r->measurement;
  const catalog::FamilyInfo* info = catalog::FindFamily(point.family);
  std::vector<std::string> metrics;
  if (info != nullptr) metrics = info->counters;
  const bool launches_kernels = c.Shape().function != nullptr || m.kernel_median_seconds() > 0;
  CounterProfiler* profiler = launches_kernels ? Profiler() : nullptr;
  if (!launches_kernels) {
    m.set_counters_note("counters unavailable: the timed region launches no kernel");
    return;
  }
  if (profiler == nullptr) {
    m.set_counters_note(profiler_note_);
    return;
  }
  Status s = RunCounterPass(*profiler, c, stream_, metrics, cold ? flusher_.get() : nullptr,
                            traced_launches, &m);
  if (s.ok()) return;
  if (s.code() == StatusCode::kPermissionDenied) {
    // Not permitted now means not permitted for the rest of the run.
    profiler_note_ = s.message();
    environment_.set_counters_note(profiler_note_);
    profiler_.reset();
    m.set_counters_note(profiler_note_);
    return;
  }
  m.set_counters_note("counters unavailable: " + s.message());
  if (kernels::IsContextPoisoned()) r->context_poisoned = true;
}

}  // namespace warpwatch::worker
