// File: server/metrics/schedule_metrics.cc
#include "server/metrics/schedule_metrics.h"

#include <string>

namespace warpwatch::server::metrics {

const char* FireOutcomeLabel(const schedule::FireOutcome& outcome) {
  const std::string& reason = outcome.skipped_reason;
  if (reason.empty()) return "fired";
  if (reason == schedule::kSkippedOverlap) return "skipped_overlap";
  if (reason == schedule::kSkippedMissed) return "skipped_missed";
  if (reason == schedule::kSkippedNoDevice) return "skipped_no_gpu";
  return "skipped_error";
}

ScheduleMetrics::ScheduleMetrics(prometheus::Registry& registry)
    : fires_(prometheus::BuildCounter()
                 .Name("warpwatch_schedule_fires_total")
                 .Help("Due times the scheduler decided, by schedule and outcome (fired, or "
                       "skipped and why)")
                 .Register(registry)),
      jobs_created_(prometheus::BuildCounter()
                        .Name("warpwatch_schedule_jobs_created_total")
                        .Help("Jobs created by scheduled fires (one per matching GPU), by schedule")
                        .Register(registry)) {}

void ScheduleMetrics::ObserveFire(const schedule::FireOutcome& outcome) {
  if (outcome.schedule_run_id == 0) return;  // another replica recorded this due time
  fires_.Add({{"schedule", outcome.schedule_name}, {"outcome", FireOutcomeLabel(outcome)}})
      .Increment();
  if (outcome.jobs > 0) {
    jobs_created_.Add({{"schedule", outcome.schedule_name}}).Increment(outcome.jobs);
  }
}

}  // namespace warpwatch::server::metrics
