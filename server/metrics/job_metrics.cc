// File: server/metrics/job_metrics.cc
#include "server/metrics/job_metrics.h"

#include <google/protobuf/util/time_util.h>

namespace warpwatch::server::metrics {
namespace {

using google::protobuf::util::TimeUtil;

// Seconds from `from` to `to`; negative when either is unset or they are out of order.
double Between(const google::protobuf::Timestamp& from, const google::protobuf::Timestamp& to) {
  if (from.seconds() == 0 || to.seconds() == 0) return -1;
  return static_cast<double>(TimeUtil::DurationToMicroseconds(to - from)) / 1e6;
}

// A nightly suite runs for minutes; a queue can hold jobs for hours behind a busy fleet.
const prometheus::Histogram::BucketBoundaries kQueueWaitBounds = {
    0.01, 0.1, 1, 5, 15, 60, 300, 900, 1800, 3600, 7200, 14400, 43200, 86400};
const prometheus::Histogram::BucketBoundaries kDurationBounds = {
    1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400, 43200};

const char* StateLabel(v1::JobState state) {
  switch (state) {
    case v1::JOB_STATE_SUCCEEDED:
      return "succeeded";
    case v1::JOB_STATE_FAILED:
      return "failed";
    case v1::JOB_STATE_CANCELLED:
      return "cancelled";
    default:
      return nullptr;
  }
}

}  // namespace

JobMetrics::JobMetrics(prometheus::Registry& registry)
    : queue_wait_(prometheus::BuildHistogram()
                      .Name("warpwatch_job_queue_wait_seconds")
                      .Help("Time from a job's creation to its first claim by a worker")
                      .Register(registry)
                      .Add({}, kQueueWaitBounds)),
      duration_(prometheus::BuildHistogram()
                    .Name("warpwatch_job_duration_seconds")
                    .Help("Time from a job's first claim to its end through FinishJob, by the "
                          "state it ended in")
                    .Register(registry)),
      claims_(prometheus::BuildCounter()
                  .Name("warpwatch_acquire_claims_total")
                  .Help("Claim transactions AcquireJob ran, by what triggered them (a poll's "
                        "arrival, or a queued job's notification waking a parked poll) and "
                        "their outcome")
                  .Register(registry)) {
  for (const char* trigger : {"arrival", "notification"}) {
    for (const char* outcome : {"leased", "empty", "error"}) {
      claims_.Add({{"trigger", trigger}, {"outcome", outcome}});
    }
  }
  for (v1::JobState s : {v1::JOB_STATE_SUCCEEDED, v1::JOB_STATE_FAILED, v1::JOB_STATE_CANCELLED}) {
    duration_.Add({{"state", StateLabel(s)}}, kDurationBounds);
  }
}

void JobMetrics::ObserveClaimed(const v1::Job& job) {
  if (job.attempts() != 1) return;
  const double wait = Between(job.created_at(), job.started_at());
  if (wait >= 0) queue_wait_.Observe(wait);
}

void JobMetrics::CountClaim(bool notified, const char* outcome) {
  claims_.Add({{"trigger", notified ? "notification" : "arrival"}, {"outcome", outcome}})
      .Increment();
}

void JobMetrics::ObserveFinished(const v1::Job& job) {
  const char* state = StateLabel(job.state());
  if (state == nullptr) return;
  const double seconds = Between(job.started_at(), job.finished_at());
  if (seconds >= 0) duration_.Add({{"state", state}}, kDurationBounds).Observe(seconds);
}

}  // namespace warpwatch::server::metrics
