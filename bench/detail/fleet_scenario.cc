// File: bench/detail/fleet_scenario.cc
#include "bench/detail/fleet_scenario.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/detail/sim_worker.h"

namespace warpwatch::bench {
namespace {

using Clock = LoadClock;

// One call's latency and when it started (seconds since the fleet's origin): where the slowest
// calls fall tells a server-wide stall (heartbeats and health checks slow at the same moment)
// from a queue (heartbeats slow, health fast) and from a start-up burst.
struct TimedCall {
  double at_s = 0;
  double ms = 0;
  const char* what = "";
};

std::vector<double> Latencies(const std::vector<TimedCall>& calls) {
  std::vector<double> ms;
  ms.reserve(calls.size());
  for (const TimedCall& c : calls) ms.push_back(c.ms);
  return ms;
}

// The `n` slowest of `calls`, and how many took over `threshold_ms` in each second of the run.
void PrintSlowest(std::vector<TimedCall> calls, size_t n, double threshold_ms) {
  std::sort(calls.begin(), calls.end(),
            [](const TimedCall& a, const TimedCall& b) { return a.ms > b.ms; });
  std::printf("slowest calls (started at, since the polls opened):");
  for (size_t i = 0; i < std::min(n, calls.size()); ++i) {
    std::printf("%s %s %.1f ms at %.2f s", i ? "," : "", calls[i].what, calls[i].ms,
                calls[i].at_s);
  }
  std::map<int, int> slow_by_second;
  for (const TimedCall& c : calls) {
    if (c.ms > threshold_ms) ++slow_by_second[static_cast<int>(c.at_s)];
  }
  std::printf("\ncalls over %.0f ms by second of the run:", threshold_ms);
  if (slow_by_second.empty()) std::printf(" none");
  for (const auto& [second, count] : slow_by_second) std::printf(" %ds:%d", second, count);
  std::printf("\n");
}

// N workers' long-polls and heartbeats, driven through gRPC's callback API so that the
// benchmark needs no thread per simulated worker.
class Fleet {
 public:
  Fleet(std::vector<std::unique_ptr<SimWorker>> workers, Clock::time_point origin)
      : workers_(std::move(workers)), origin_(origin) {}

  // Re-issues each worker's AcquireJob as soon as the previous one returns, until Stop().
  void StartPolls() {
    polls_.resize(workers_.size());
    for (size_t i = 0; i < workers_.size(); ++i) Poll(i);
  }
  // One heartbeat of worker i; its latency lands in heartbeats().
  void Heartbeat(size_t i) {
    auto call = std::make_shared<HeartbeatCall>();
    ServerUnderTest::Authorize(call->context, workers_[i]->token());
    call->context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    call->request.set_worker_id(workers_[i]->worker_id());
    call->start = Clock::now();
    Begin();
    workers_[i]->stub().async()->Heartbeat(
        &call->context, &call->request, &call->response, [this, call](grpc::Status s) {
          const double ms = MsSince(call->start);
          const double at_s = std::chrono::duration<double>(call->start - origin_).count();
          {
            std::lock_guard<std::mutex> lock(mu_);
            if (s.ok()) {
              heartbeats_.push_back({at_s, ms, "heartbeat"});
            } else {
              ++heartbeat_errors_;
              ++error_codes_[s.error_code()];
            }
          }
          Done();
        });
  }
  // Cancels the open polls and waits for every callback.
  void Stop() {
    stopping_ = true;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& p : polls_) if (p) p->context.TryCancel();
    }
    std::unique_lock<std::mutex> lock(mu_);
    idle_.wait(lock, [this] { return in_flight_ == 0; });
  }
  std::vector<TimedCall> heartbeats() {
    std::lock_guard<std::mutex> lock(mu_);
    return heartbeats_;
  }
  int heartbeat_errors() {
    std::lock_guard<std::mutex> lock(mu_);
    return heartbeat_errors_;
  }
  int poll_errors() const { return poll_errors_; }
  int polls_returned() const { return polls_returned_; }

 private:
  struct HeartbeatCall {
    grpc::ClientContext context;
    v1::HeartbeatRequest request;
    v1::HeartbeatResponse response;
    Clock::time_point start;
  };
  struct PollCall {
    grpc::ClientContext context;
    v1::AcquireJobRequest request;
    v1::AcquireJobResponse response;
  };

  void Poll(size_t i) {
    if (stopping_) return;
    auto call = std::make_shared<PollCall>();
    ServerUnderTest::Authorize(call->context, workers_[i]->token());
    call->context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(90));
    call->request.set_worker_id(workers_[i]->worker_id());
    call->request.set_device_uuid(workers_[i]->device_uuid());
    call->request.set_wait_seconds(60);
    {
      std::lock_guard<std::mutex> lock(mu_);
      polls_[i] = call;
    }
    Begin();
    workers_[i]->stub().async()->AcquireJob(
        &call->context, &call->request, &call->response, [this, call, i](grpc::Status s) {
          ++polls_returned_;
          if (!s.ok() && !stopping_) ++poll_errors_;
          if (!stopping_) Poll(i);
          Done();
        });
  }
  void Begin() {
    std::lock_guard<std::mutex> lock(mu_);
    ++in_flight_;
  }
  void Done() {
    std::lock_guard<std::mutex> lock(mu_);
    if (--in_flight_ == 0) idle_.notify_all();
  }

  std::vector<std::unique_ptr<SimWorker>> workers_;
  std::atomic<bool> stopping_{false};
  std::atomic<int> poll_errors_{0};
  std::atomic<int> polls_returned_{0};
  std::mutex mu_;
  std::condition_variable idle_;
  int in_flight_ = 0;                              // guarded by mu_
  std::vector<std::shared_ptr<PollCall>> polls_;  // guarded by mu_
  const Clock::time_point origin_;
  std::vector<TimedCall> heartbeats_;             // answered ones; guarded by mu_
  int heartbeat_errors_ = 0;                      // guarded by mu_
  std::map<int, int> error_codes_;                // heartbeat failures by code; guarded by mu_

 public:
  // "CODE xN" for each status code heartbeats failed with.
  std::string ErrorCodes() {
    std::lock_guard<std::mutex> lock(mu_);
    std::string out;
    for (const auto& [code, n] : error_codes_) {
      out += (out.empty() ? "" : ", ") + std::string("code ") + std::to_string(code) + " x" +
             std::to_string(n);
    }
    return out.empty() ? "none" : out;
  }
};

}  // namespace

Status RunFleet(ServerUnderTest& server, UnaryReference& unary, const References& refs,
                int count, int seconds) {
  std::vector<std::unique_ptr<SimWorker>> workers;
  const auto register_start = Clock::now();
  for (int i = 0; i < count; ++i) {
    workers.push_back(std::make_unique<SimWorker>(server, i));
    RETURN_IF_ERROR(workers.back()->Register());
  }
  std::printf("\n== fleet: %d workers registered in %.1f s\n", count,
              MsSince(register_start) / 1000);
  ASSIGN_OR_RETURN(const ProcessUse idle, server.Use());
  ASSIGN_OR_RETURN(const int idle_db, server.DatabaseConnections());
  const Clock::time_point origin = Clock::now();
  Fleet fleet(std::move(workers), origin);
  fleet.StartPolls();

  std::atomic<bool> stop{false};
  std::vector<TimedCall> health_calls;
  int health_errors = 0;
  std::thread health([&] {
    while (!stop) {
      const double at_s = std::chrono::duration<double>(Clock::now() - origin).count();
      const double ms = unary.CallMs();
      if (ms < 0) ++health_errors; else health_calls.push_back({at_s, ms, "health"});
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  ProcessUse peak = idle;
  int peak_db = idle_db;
  const auto start = Clock::now();
  for (int s = 0; s < seconds; ++s) {
    // Each worker heartbeats once a second, spread evenly over the second.
    const auto second_start = start + std::chrono::seconds(s);
    for (int i = 0; i < count; ++i) {
      std::this_thread::sleep_until(second_start + std::chrono::microseconds(1000000LL * i / count));
      fleet.Heartbeat(static_cast<size_t>(i));
    }
    ASSIGN_OR_RETURN(const ProcessUse now, server.Use());
    ASSIGN_OR_RETURN(const int db, server.DatabaseConnections());
    peak.threads = std::max(peak.threads, now.threads);
    peak.rss_mib = std::max(peak.rss_mib, now.rss_mib);
    peak_db = std::max(peak_db, db);
  }
  const double cpu = [&] {
    auto u = server.Use();
    return u.ok() ? u->cpu_seconds - idle.cpu_seconds : 0;
  }();
  stop = true;
  health.join();
  fleet.Stop();
  const std::vector<TimedCall> hb = fleet.heartbeats();
  if (hb.empty()) return InternalError("no heartbeat answered");
  const Percentiles h = Summarize(Latencies(hb));
  const Percentiles hc = health_calls.empty() ? Percentiles{} : Summarize(Latencies(health_calls));
  std::printf("%d heartbeats answered over %d s, %d failed (%s); %d polls returned (%d failed)\n",
              static_cast<int>(hb.size()), seconds, fleet.heartbeat_errors(),
              fleet.ErrorCodes().c_str(), fleet.polls_returned(), fleet.poll_errors());
  std::printf("%-40s %8s %8s %8s\n", "ms", "p50", "p99", "max");
  std::printf("%-40s %8.2f %8.2f %8.2f\n", "Heartbeat", h.p50_ms, h.p99_ms, h.max_ms);
  std::printf("%-40s %8.2f %8.2f %8.2f\n", "health Check during the run (every 100 ms)",
              hc.p50_ms, hc.p99_ms, hc.max_ms);
  std::printf("%-40s %8.2f %8.2f\n", "ref: gRPC unary before the run", refs.unary.p50_ms,
              refs.unary.p99_ms);
  std::printf("heartbeat p99 %.2f ms = %.1fx the unary reference; goal <= 20 ms %s;"
              " health max %.1f ms, goal < 100 ms %s (%d failed)\n",
              h.p99_ms, h.p99_ms / refs.unary.p99_ms, Goal(h.p99_ms <= 20), hc.max_ms,
              Goal(hc.max_ms < 100 && health_errors == 0), health_errors);
  std::vector<TimedCall> all = hb;
  all.insert(all.end(), health_calls.begin(), health_calls.end());
  PrintSlowest(std::move(all), 8, 50);
  std::printf("server: threads %d idle -> %d peak; RSS %.0f -> %.0f MiB; database connections"
              " %d -> %d; CPU %.2f cores on average\n",
              idle.threads, peak.threads, idle.rss_mib, peak.rss_mib, idle_db, peak_db,
              cpu / seconds);
  return OkStatus();
}

}  // namespace warpwatch::bench
