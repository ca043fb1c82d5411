// File: worker/daemon/job_runner.cc
#include "worker/daemon/job_runner.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#include "common/catalog/plan.h"

namespace warpwatch::worker {
namespace {

const char* OutcomeName(v1::JobOutcome outcome) {
  switch (outcome) {
    case v1::JOB_OUTCOME_SUCCEEDED: return "succeeded";
    case v1::JOB_OUTCOME_FAILED: return "failed";
    case v1::JOB_OUTCOME_CANCELLED: return "cancelled";
    case v1::JOB_OUTCOME_RELEASED: return "released";
    default: return "unspecified";
  }
}

bool Transient(StatusCode code) {
  return code == StatusCode::kUnavailable || code == StatusCode::kDeadlineExceeded ||
         code == StatusCode::kAborted || code == StatusCode::kCancelled ||
         code == StatusCode::kInternal || code == StatusCode::kUnknown;
}

}  // namespace

JobRunner::JobRunner(JobRunnerContext context, v1::Device device, Executor* executor)
    : context_(context), device_(std::move(device)), executor_(executor) {}

bool JobRunner::GraceOver() const {
  if (!context_.shutdown->requested()) return false;
  auto limit = std::chrono::duration<double>(context_.options->grace_seconds);
  return Shutdown::Clock::now() - context_.shutdown->requested_at() > limit;
}

bool JobRunner::HandBackTimeOver() const {
  if (!context_.shutdown->requested()) return false;
  const DaemonOptions& o = *context_.options;
  auto limit = std::chrono::duration<double>(o.grace_seconds + o.hand_back_seconds);
  return Shutdown::Clock::now() - context_.shutdown->requested_at() > limit;
}

std::string JobRunner::Run(const v1::AcquireJobResponse& lease) {
  const v1::Job& job = lease.job();
  const int64_t job_id = job.id();
  const int64_t run_id = lease.run_id();
  std::shared_ptr<JobControl> control = context_.jobs->Add(run_id);
  if (context_.metrics) context_.metrics->OnJobStarted(device_);
  spdlog::info("job {} (run {}) started on GPU {} ({})", job_id, run_id, device_.index(),
               device_.uuid());

  catalog::PlanLimits limits;
  limits.max_points = context_.options->max_points;
  StatusOr<std::vector<catalog::Point>> points = catalog::ExpandSpec(job.spec(), limits);
  std::string outcome;
  if (!points.ok()) {
    outcome = Finish(job_id, run_id, v1::JOB_OUTCOME_FAILED,
                     "worker cannot expand the spec: " + points.status().ToString(), *control);
  } else {
    const int64_t total = static_cast<int64_t>(points->size());
    if (context_.metrics) context_.metrics->OnJobPlanned(device_, total);
    context_.progress->Update(job_id, run_id, 0, total, "");

    ExecutionRequest request;
    request.device_index = device_.index();
    request.settings = job.spec().measurement();
    request.points = std::move(points).value();
    request.labels.insert(job.spec().labels().begin(), job.spec().labels().end());

    int64_t done = 0;
    std::string current;
    ExecutionCallbacks callbacks;
    callbacks.on_environment = [&](const v1::RunEnvironment& environment) {
      context_.uploader->SetEnvironment(run_id, environment);
    };
    callbacks.on_point_started = [&](size_t, const catalog::Point& point) {
      current = point.Canonical();
      context_.progress->Update(job_id, run_id, done, total, current);
    };
    callbacks.on_measurement = [&](size_t, const v1::Measurement& measurement) {
      ++done;
      if (context_.metrics) context_.metrics->OnPoint(device_, measurement);
      context_.uploader->Enqueue(run_id, measurement);
      context_.progress->Update(job_id, run_id, done, total, current);
    };
    callbacks.cancelled = [&] {
      if (GraceOver()) control->release = true;
      return control->ShouldStop();
    };
    StatusOr<ExecutionResult> result = executor_->Execute(request, callbacks);

    if (control->lost) {
      context_.uploader->Abandon(run_id);
      outcome = "lost";
      spdlog::warn("job {}: lease lost; stopped after {} of {} points", job_id, done, total);
    } else {
      // Whatever finished is uploaded before the job is finished (a released job's points are
      // kept: the next attempt's duplicates are ignored by the server).
      Status uploaded = context_.uploader->WaitUploaded(
          run_id, [&] { return control->lost.load() || HandBackTimeOver(); });
      v1::JobOutcome finish = v1::JOB_OUTCOME_SUCCEEDED;
      std::string error;
      if (control->lost) {
        context_.uploader->Abandon(run_id);
        outcome = "lost";
      } else if (!result.ok() && control->cancel_requested) {
        finish = v1::JOB_OUTCOME_CANCELLED;
        error = "cancelled after " + std::to_string(done) + " of " + std::to_string(total) +
                " points";
      } else if (!result.ok() && control->release) {
        finish = v1::JOB_OUTCOME_RELEASED;
        error = "worker shutting down after " + std::to_string(done) + " of " +
                std::to_string(total) + " points";
      } else if (!result.ok()) {
        finish = v1::JOB_OUTCOME_FAILED;
        error = result.status().ToString();
      } else if (!uploaded.ok()) {
        finish = v1::JOB_OUTCOME_FAILED;
        error = "measurements not stored: " + uploaded.ToString();
      }
      if (outcome.empty()) {
        context_.progress->Remove(run_id);
        outcome = Finish(job_id, run_id, finish, error, *control);
      }
    }
  }
  context_.progress->Remove(run_id);
  context_.uploader->Forget(run_id);
  context_.jobs->Remove(run_id);
  if (context_.metrics) context_.metrics->OnJobFinished(device_, outcome);
  spdlog::info("job {} ended: {}", job_id, outcome);
  return outcome;
}

std::string JobRunner::Finish(int64_t job_id, int64_t run_id, v1::JobOutcome outcome,
                              const std::string& error, const JobControl& control) {
  Backoff backoff(context_.options->backoff);
  while (true) {
    v1::FinishJobRequest request;
    request.set_worker_id(context_.registrar->worker_id());
    request.set_job_id(job_id);
    request.set_run_id(run_id);
    request.set_outcome(outcome);
    request.set_error(error);
    StatusOr<v1::Job> finished = context_.client->FinishJob(request);
    if (finished.ok()) return OutcomeName(outcome);
    const Status& status = finished.status();
    if (status.code() == StatusCode::kFailedPrecondition) {
      spdlog::warn("job {}: FinishJob refused, lease lost: {}", job_id, status.message());
      return "lost";
    }
    if (!Transient(status.code()) || control.lost) {
      spdlog::error("job {}: FinishJob({}) failed: {}", job_id, OutcomeName(outcome),
                    status.ToString());
      return "lost";
    }
    if (HandBackTimeOver()) {
      spdlog::error("job {}: server unreachable at shutdown; its lease will expire", job_id);
      return "lost";
    }
    auto delay = backoff.NextDelay();
    if (backoff.attempt() == 1 || backoff.attempt() % 10 == 0) {
      spdlog::warn("job {}: FinishJob failed ({}), retrying in {} ms", job_id, status.ToString(),
                   delay.count());
    }
    std::this_thread::sleep_for(delay);
  }
}

}  // namespace warpwatch::worker
