// File: server/metrics/job_metrics.h
// How long jobs wait and run: warpwatch_job_queue_wait_seconds (creation to first claim) and
// warpwatch_job_duration_seconds{state} (claim to the worker's FinishJob). Observed by the
// replica that served the claim or the finish, so summing over replicas counts each job once.
#ifndef WARPWATCH_SERVER_METRICS_JOB_METRICS_H_
#define WARPWATCH_SERVER_METRICS_JOB_METRICS_H_

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "warpwatch/v1/job.pb.h"

namespace warpwatch::server::metrics {

// Thread-safe (prometheus-cpp metrics are). `registry` must outlive the object.
class JobMetrics {
 public:
  explicit JobMetrics(prometheus::Registry& registry);

  // A job was just claimed (as stored after the claim). A claim that counts as its first attempt
  // observes the queue wait, started_at (its first claim) - created_at; a job claimed again after
  // its lease expired is not observed twice, one handed back on a worker's shutdown (RELEASED,
  // which returns its attempt) is observed again with the same wait.
  void ObserveClaimed(const v1::Job& job);
  // A job just finished through FinishJob (as stored after it). Terminal states observe
  // finished_at - started_at (from its first claim, retries included) under
  // state="succeeded"|"failed"|"cancelled"; a job released back to the queue is not observed.
  // Jobs failed by the reaper (lease expiries, timeouts) do not pass here and are not observed.
  void ObserveFinished(const v1::Job& job);
  // One claim transaction AcquireJob ran: warpwatch_acquire_claims_total{trigger, outcome}.
  // trigger "arrival" (a poll's first claim) or "notification" (a parked poll woken by a queued
  // job); outcome "leased", "empty" (nothing it may take) or "error". Claims per queued job is
  // the notification claims over the jobs: about one when wake-ups are targeted.
  void CountClaim(bool notified, const char* outcome);

 private:
  prometheus::Histogram& queue_wait_;
  prometheus::Family<prometheus::Histogram>& duration_;
  prometheus::Family<prometheus::Counter>& claims_;
};

}  // namespace warpwatch::server::metrics

#endif  // WARPWATCH_SERVER_METRICS_JOB_METRICS_H_
