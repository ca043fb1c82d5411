// Times one catalog point through the engine itself (worker/engine/point_engine.h): the same
// prepare, verification, blocking kernel, clean L2 flush, warm-up, stopping rule and median the
// nightly runs use, so a bench ratio is a ratio of the numbers warpwatch publishes.
#ifndef WARPWATCH_BENCH_DETAIL_CASE_TIMER_H_
#define WARPWATCH_BENCH_DETAIL_CASE_TIMER_H_

#include <string>

#include "common/catalog/plan.h"
#include "common/status/status.h"
#include "worker/engine/engine_settings.h"
#include "worker/engine/point_engine.h"

namespace warpwatch::bench {

struct CaseTiming {
  std::string key;          // the point's canonical key
  std::string kernel_name;  // the main kernel's real name ("" when the region is not ours)
  int runs = 0;             // samples the engine took
  double median_seconds = 0;
  double rel_stderr = 0;    // of the mean, as the engine's stopping rule read it
  std::string stop_reason;  // why the engine stopped sampling
  double bytes = 0;         // Work::bytes of one Run
  double GigabytesPerSecond() const {
    return median_seconds > 0 ? bytes / median_seconds / 1e9 : 0;
  }
};

// The nightly settings (every MeasurementSettings field at its default), with at most
// `max_samples` samples when it is > 0.
worker::EngineSettings BenchSettings(int max_samples);

// engine.Measure(point, settings). A point that is not OK (verification included) or not verified
// is an error naming the point and the engine's reason.
StatusOr<CaseTiming> TimeCase(worker::PointEngine& engine, const catalog::Point& point,
                              const worker::EngineSettings& settings);

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_CASE_TIMER_H_
