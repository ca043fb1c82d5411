// File: tests/e2e/replay/replay_change.cc
#include "tests/e2e/replay/replay_change.h"

#include <algorithm>

namespace warpwatch::e2e {

Status ValidateReplayChange(const ReplayChange& change) {
  if (!(change.slowdown > 0)) {
    return InvalidArgumentError("--replay-slowdown must be > 0, got " +
                                std::to_string(change.slowdown));
  }
  if (!(change.sm_clock_mhz >= 0)) {
    return InvalidArgumentError("--replay-sm-clock-mhz must be >= 0, got " +
                                std::to_string(change.sm_clock_mhz));
  }
  return OkStatus();
}

void ApplyToEnvironment(const ReplayChange& change, v1::RunEnvironment* environment) {
  if (!change.driver_version.empty()) environment->set_driver_version(change.driver_version);
  if (change.sm_clock_mhz > 0) environment->set_sm_clock_mhz_start(change.sm_clock_mhz);
}

void ApplyToMeasurement(const ReplayChange& change, v1::Measurement* m) {
  if (m->status() != v1::POINT_STATUS_OK) return;
  const auto& families = change.slowdown_families;
  const bool slowed = families.empty() || std::find(families.begin(), families.end(),
                                                    m->case_().family()) != families.end();
  double factor = slowed ? change.slowdown : 1;
  if (change.sm_clock_mhz > 0 && m->median_sm_clock_mhz() > 0) {
    factor *= m->median_sm_clock_mhz() / change.sm_clock_mhz;
    m->set_median_sm_clock_mhz(change.sm_clock_mhz);
    for (double& mhz : *m->mutable_sample_sm_clock_mhz()) {
      if (mhz > 0) mhz = change.sm_clock_mhz;
    }
  }
  if (factor == 1) return;
  for (double& s : *m->mutable_samples_seconds()) s *= factor;
  for (double& s : *m->mutable_sample_kernel_seconds()) s *= factor;
  v1::SampleStats* stats = m->mutable_stats();
  stats->set_median(stats->median() * factor);
  stats->set_mean(stats->mean() * factor);
  stats->set_min(stats->min() * factor);
  stats->set_max(stats->max() * factor);
  stats->set_stddev(stats->stddev() * factor);
  stats->set_p10(stats->p10() * factor);
  stats->set_p90(stats->p90() * factor);
  m->set_kernel_median_seconds(m->kernel_median_seconds() * factor);
  m->set_traced_event_median_seconds(m->traced_event_median_seconds() * factor);
  for (v1::KernelInfo& k : *m->mutable_kernels()) k.set_median_seconds(k.median_seconds() * factor);
  m->set_gbps(m->gbps() / factor);
  m->set_gflops(m->gflops() / factor);
  m->set_bus_gbps(m->bus_gbps() / factor);
  m->set_pct_of_peak_bandwidth(m->pct_of_peak_bandwidth() / factor);
}

}  // namespace warpwatch::e2e
