// File: tests/server/gpu_health/power/run_pool.h
// Real clean runs turned into what a virtual fleet resamples: per case a reference median, each
// physical GPU's offset from it, and each run's residuals against its own GPU's median. A
// virtual GPU-night then reads reference x (1 + its GPU's offset) x (1 + one real run's
// residuals), whole runs drawn, so cases that moved together on a real night move together.
#ifndef WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_RUN_POOL_H_
#define WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_RUN_POOL_H_

#include <string>
#include <vector>

#include "common/status/status.h"
#include "tests/server/detect/power/fixture_reader.h"

namespace warpwatch::server::gpu_health::power {

// One real run as residuals: residual[c] = its median of case c / its GPU's median of c - 1.
struct PoolRun {
  std::string path;
  int gpu = 0;                   // index into RunPool::gpus
  std::vector<double> residual;  // per case; NaN: the run has no good point of the case
};

struct RunPool {
  std::vector<std::string> case_keys;  // sorted; every case some run has a good point of
  std::vector<std::string> families;   // per case: the key up to its first '/'
  // Per case: the mean over the physical GPUs of each GPU's median over its good points.
  std::vector<double> reference_seconds;
  std::vector<std::string> gpus;  // physical GPUs (device UUIDs), sorted
  // offset_basis[k][c]: (GPU k's median / reference - 1) x shrink[c]. Over k it sums to 0; its
  // covariance over GPUs (divided by K - 1) is the spread a virtual GPU's offsets are drawn with.
  std::vector<std::vector<double>> offset_basis;
  // Per case: the share of the GPUs' observed spread kept in offset_basis. A GPU's median of n
  // runs carries ~ (pi / 2) s^2 / n of run noise (s: the residuals' pooled sd), which is no
  // property of the GPU: shrink = sqrt(max(0, 1 - that / observed variance)); 1 when not asked.
  std::vector<double> shrink;
  std::vector<double> offset_sigma;    // per case: sd of the drawn offsets (after shrinking)
  std::vector<double> residual_sigma;  // per case: the residuals' pooled sd
  std::vector<PoolRun> runs;
};

// `runs`: clean runs of one GPU model, from at least 2 GPUs with at least 2 runs each (any
// order). A case counts where at least one run has a good point (detect::IsGoodRun, default
// config); each GPU needs a good point of it too. `shrink_offsets`: as RunPool::shrink.
// Errors: INVALID_ARGUMENT when the runs do not meet that.
StatusOr<RunPool> BuildRunPool(const std::vector<detect::power::FixtureRun>& runs,
                               bool shrink_offsets);

// Runs of the pool's GPUs that are not part of it (a GPU under a deliberate fault) as residuals
// against that GPU's clean medians, which the pool does not keep: they are recomputed from
// `clean` (the runs BuildRunPool was given). Errors: INVALID_ARGUMENT for a run of a GPU the
// pool lacks.
StatusOr<std::vector<PoolRun>> ResidualsAgainstClean(
    const RunPool& pool, const std::vector<detect::power::FixtureRun>& clean,
    const std::vector<detect::power::FixtureRun>& runs);

}  // namespace warpwatch::server::gpu_health::power

#endif  // WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_RUN_POOL_H_
