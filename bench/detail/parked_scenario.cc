// File: bench/detail/parked_scenario.cc
#include "bench/detail/parked_scenario.h"

#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/detail/sim_worker.h"
#include "tests/server/metrics/metrics_scrape.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::bench {
namespace {

using Clock = LoadClock;

// One long-poll per worker, opened through gRPC's callback API (no thread per poll), answered
// once: with the job leased to it, or empty when the benchmark cancels it.
class ParkedPolls {
 public:
  struct Poll {
    grpc::ClientContext context;
    v1::AcquireJobRequest request;
    v1::AcquireJobResponse response;
    grpc::Status status;
    bool done = false;
    Clock::time_point answered_at;
  };

  explicit ParkedPolls(size_t n) : polls_(n) {}
  ~ParkedPolls() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& p : polls_) {
        if (p && !p->done) p->context.TryCancel();
      }
    }
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [&] { return open_ == 0; });
  }

  void Open(size_t i, SimWorker& worker) {
    auto poll = std::make_unique<Poll>();
    ServerUnderTest::Authorize(poll->context, worker.token());
    poll->context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(600));
    poll->request.set_worker_id(worker.worker_id());
    poll->request.set_device_uuid(worker.device_uuid());
    poll->request.set_wait_seconds(300);
    Poll* p = poll.get();
    {
      std::lock_guard<std::mutex> lock(mu_);
      polls_[i] = std::move(poll);
      ++open_;
    }
    worker.stub().async()->AcquireJob(&p->context, &p->request, &p->response,
                                      [this, p](grpc::Status s) {
                                        std::lock_guard<std::mutex> lock(mu_);
                                        p->status = std::move(s);
                                        p->answered_at = Clock::now();
                                        p->done = true;
                                        --open_;
                                        changed_.notify_all();
                                      });
  }

  // Waits for poll i's answer (at most `timeout`); nullptr on timeout.
  const Poll* WaitFor(size_t i, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!changed_.wait_for(lock, timeout, [&] { return polls_[i]->done; })) return nullptr;
    return polls_[i].get();
  }
  size_t answered() {
    std::lock_guard<std::mutex> lock(mu_);
    size_t n = 0;
    for (auto& p : polls_) n += p && p->done ? 1 : 0;
    return n;
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<std::unique_ptr<Poll>> polls_;  // guarded by mu_
  size_t open_ = 0;                           // guarded by mu_
};

// The server's claim transactions so far, by trigger ("arrival" or "notification").
StatusOr<double> Claims(const ServerUnderTest& server, const std::string& trigger) {
  const std::string text = testing::FetchMetrics(server.metrics_port());
  double total = 0;
  for (const char* outcome : {"leased", "empty", "error"}) {
    const double v = testing::SampleValue(
        text, "warpwatch_acquire_claims_total",
        {"trigger=\"" + trigger + "\"", "outcome=\"" + std::string(outcome) + "\""});
    if (v < 0) return InternalError("/metrics has no warpwatch_acquire_claims_total " + trigger);
    total += v;
  }
  return total;
}

}  // namespace

Status RunParked(ServerUnderTest& server, UnaryReference& unary, int workers, int submits) {
  std::vector<std::unique_ptr<SimWorker>> fleet;
  for (int i = 0; i < workers; ++i) {
    fleet.push_back(std::make_unique<SimWorker>(server, i));
    RETURN_IF_ERROR(fleet.back()->Register());
  }
  ParkedPolls polls(fleet.size());
  for (size_t i = 0; i < fleet.size(); ++i) polls.Open(i, *fleet[i]);
  // Parked once every poll's arrival claim ran (one each, nothing queued yet).
  const Clock::time_point parked_by = Clock::now() + std::chrono::seconds(120);
  double arrivals = 0;
  while (Clock::now() < parked_by) {
    ASSIGN_OR_RETURN(arrivals, Claims(server, "arrival"));
    if (arrivals >= workers) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (arrivals < workers) {
    return DeadlineExceededError(std::to_string(static_cast<int>(arrivals)) + " of " +
                                 std::to_string(workers) + " polls parked within 120 s");
  }
  ASSIGN_OR_RETURN(const double notified_before, Claims(server, "notification"));
  auto jobs = v1::JobService::NewStub(server.NewChannel());
  std::vector<double> lease_ms, unary_ms;
  // Each job for the GPU of worker k, spread over the fleet so that wake-ups cannot ride on
  // parking order.
  for (int i = 0; i < submits; ++i) {
    const size_t k =
        static_cast<size_t>(i) * static_cast<size_t>(workers) / static_cast<size_t>(submits);
    v1::Job job;
    const Clock::time_point start = Clock::now();
    RETURN_IF_ERROR(
        Submit(*jobs, server.submitter_token(), BenchSpec(fleet[k]->device_uuid()), &job));
    const ParkedPolls::Poll* answer = polls.WaitFor(k, std::chrono::seconds(30));
    if (answer == nullptr) {
      return DeadlineExceededError("submit " + std::to_string(i) + ": GPU " +
                                   fleet[k]->device_uuid() + " leased nothing within 30 s");
    }
    if (!answer->status.ok() || answer->response.job().id() != job.id()) {
      return InternalError(
          "submit " + std::to_string(i) + ": the poll of " + fleet[k]->device_uuid() +
          " answered " + std::to_string(answer->status.error_code()) + " with job " +
          std::to_string(answer->response.job().id()) + ", submitted " + std::to_string(job.id()));
    }
    lease_ms.push_back(
        std::chrono::duration<double, std::milli>(answer->answered_at - start).count());
    unary_ms.push_back(unary.CallMs());
  }
  ASSIGN_OR_RETURN(const double notified_after, Claims(server, "notification"));
  const double per_submit = (notified_after - notified_before) / submits;
  const Percentiles lease = Summarize(lease_ms), u = Summarize(unary_ms);
  std::printf("\n== parked: %d workers long-polling, %d jobs each for one of their GPUs\n", workers,
              submits);
  std::printf("%-44s %8s %8s %8s\n", "ms", "p50", "p99", "max");
  std::printf("%-44s %8.2f %8.2f %8.2f\n", "submit -> lease held (SubmitJob included)",
              lease.p50_ms, lease.p99_ms, lease.max_ms);
  std::printf("%-44s %8.2f %8.2f %8.2f\n", "ref: gRPC unary (health Check)", u.p50_ms, u.p99_ms,
              u.max_ms);
  std::printf(
      "claim transactions per submit (notified): %.2f (%.0f in all; %d polls parked, "
      "%zu answered)\n",
      per_submit, notified_after - notified_before, workers, polls.answered());
  std::printf("goal: lease p99 <= 50 ms %s; about 1 claim per submit %s\n",
              Goal(lease.p99_ms <= 50), Goal(per_submit <= 1.5));
  return OkStatus();
}

}  // namespace warpwatch::bench
