// File: bench/detail/fleet_nights.h
// Loads a fleet's nightly runs of the suite into a migrated warpwatch database with server-side
// SQL, as the scheduler and workers would have left them (bench_analysis_scale): one schedule,
// one schedule run per night, one job and one run per GPU and night, every case's measurement.
#ifndef WARPWATCH_BENCH_DETAIL_FLEET_NIGHTS_H_
#define WARPWATCH_BENCH_DETAIL_FLEET_NIGHTS_H_

#include <string>
#include <vector>

#include "bench/detail/nightly_suite.h"
#include "common/status/status.h"

namespace warpwatch::bench {

// What a night looks like. Medians: the case's fixture median x (1 + the GPU's offset) x
// (1 + the case's between-run sigma x a standard normal draw), seeded by `seed` and the night.
struct FleetShape {
  int gpus = 1000;  // devices "GPU-<d>" (d from 0), all of `model`
  std::string model = "NVIDIA H100 80GB HBM3";
  int samples = 50;               // per point; samples_seconds = median x a per-case template
  double max_gpu_offset = 0.015;  // each GPU's offset, uniform in [-max, +max]
  double min_case_sigma = 0.001;  // each case's between-run sigma, log-uniform in [min, max]
  double max_case_sigma = 0.01;
  unsigned seed = 42;
  // In the new night only: the first `slowed_gpus` GPUs run every case `slowdown` slower.
  int slowed_gpus = 0;
  double slowdown = 0.05;
  // Serialized v1::Measurement every row's doc_pb carries (a real one makes rows their real
  // size); the job spec (JSON) of every job.
  std::string doc_pb;
  std::string spec_json = "{}";
};

// The database's one schedule ("nightly") and nights 0 .. nights-1 (night n due at today 00:00
// UTC minus (nights - n) days), analysed (analysis_state DONE), plus the series_noise row each
// GPU's last analysis left per case; then VACUUM ANALYZE. `progress(night)` after each night.
// Precondition: `url` names a migrated database holding no runs; `cases` is not empty.
Status LoadFleetHistory(const std::string& url, const FleetShape& shape,
                        const std::vector<SuiteCase>& cases, int nights,
                        void (*progress)(int night, int nights));

// Night `night` (due today 00:00 UTC when night == the history's nights), its runs SUCCEEDED and
// analysis_state PENDING, in one transaction, so the analysis finds the whole night at once.
Status InsertPendingNight(const std::string& url, const FleetShape& shape,
                          const std::vector<SuiteCase>& cases, int night, int nights);

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_FLEET_NIGHTS_H_
