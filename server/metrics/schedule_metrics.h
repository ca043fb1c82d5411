// File: server/metrics/schedule_metrics.h
// What the scheduler decided: warpwatch_schedule_fires_total{schedule,outcome} and
// warpwatch_schedule_jobs_created_total{schedule}, counted by the replica whose scheduler recorded
// the decision (exactly one per due time across replicas), so sums over replicas count each fire
// once. `schedule` is the schedule's name: operators create a handful, and "did nightly fire last
// night" is the question these answer. A deleted schedule's series stay until the restart.
#ifndef WARPWATCH_SERVER_METRICS_SCHEDULE_METRICS_H_
#define WARPWATCH_SERVER_METRICS_SCHEDULE_METRICS_H_

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/registry.h>

#include "server/schedule/schedule_store.h"

namespace warpwatch::server::metrics {

// The outcome label of a decision: "fired", or "skipped_overlap", "skipped_missed",
// "skipped_no_gpu", "skipped_error" (an invalid cron after a tzdata change, an undecodable row:
// the skipped run's reason carries the text). Bounded, unlike the reason itself.
const char* FireOutcomeLabel(const schedule::FireOutcome& outcome);

// Thread-safe (prometheus-cpp metrics are). `registry` must outlive the object.
class ScheduleMetrics {
 public:
  explicit ScheduleMetrics(prometheus::Registry& registry);

  // One decision the scheduler recorded (SchedulerOptions::on_fire). A due time another replica
  // recorded first (no schedule run of ours) is not counted.
  void ObserveFire(const schedule::FireOutcome& outcome);

 private:
  prometheus::Family<prometheus::Counter>& fires_;
  prometheus::Family<prometheus::Counter>& jobs_created_;
};

}  // namespace warpwatch::server::metrics

#endif  // WARPWATCH_SERVER_METRICS_SCHEDULE_METRICS_H_
