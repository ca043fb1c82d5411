// bench_server_load: issue 12's service benchmarks, against the real warpwatch-server process and
// a throwaway PostgreSQL on this machine (loopback only; every loop bounded in count and time).
// Each figure is printed next to references measured in the same run: a bare gRPC unary call to
// the same server (grpc.health.v1.Health/Check) and a bare PostgreSQL round trip (SELECT 1 on a
// connection of the benchmark's own), so the ratios survive a noisy host.
//
//   lease   Submit -> a long-polling worker holds the lease: --submits jobs, one at a time, each
//           submitted while the worker's AcquireJob waits (LISTEN/NOTIFY wakes it).
//   ingest  --ingest-workers workers upload --ingest-measurements measurements of 100 samples
//           each through UploadMeasurements, in the worker's batches of 64, all at once:
//           measurements per second and the server's CPU seconds per 1000 measurements.
//   fleet   --fleet-workers workers, each with its own token and connection, keep an AcquireJob
//           long-poll open and heartbeat every second for --fleet-seconds: heartbeat latency,
//           health-check latency (every 100 ms), and the server's threads, memory and
//           database connections, sampled every second.
//
//   build/bin/bench_server_load [--scenario all|lease|ingest|fleet] [--server PATH] ...
// Exit status 1 when the setup failed or a call answered wrongly; a missed goal is printed.
#include <grpcpp/generic/generic_stub.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/detail/paired_latency.h"
#include "bench/detail/server_under_test.h"
#include "bench/detail/sim_worker.h"
#include "server/store/detail/conversions.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::bench {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

const char* Goal(bool met) { return met ? "met" : "MISSED"; }

// The bare unary call: the server's gRPC health check, on a channel of its own.
class UnaryReference {
 public:
  UnaryReference(const ServerUnderTest& server, std::string token)
      : stub_(server.NewChannel()), token_(std::move(token)) {}

  // Milliseconds of one call; negative when it failed.
  double CallMs() {
    grpc::ClientContext context;
    ServerUnderTest::Authorize(context, token_);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
    grpc::Slice nothing;  // HealthCheckRequest{service: ""} serializes to nothing
    grpc::ByteBuffer request(&nothing, 1);  // a default ByteBuffer is no message at all
    grpc::ByteBuffer response;
    std::promise<grpc::Status> done;
    const auto start = Clock::now();
    stub_.UnaryCall(&context, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &request,
                    &response, [&done](grpc::Status s) { done.set_value(std::move(s)); });
    const grpc::Status status = done.get_future().get();
    const double ms = MsSince(start);
    return status.ok() ? ms : -1;
  }

 private:
  grpc::GenericStub stub_;
  std::string token_;
};

struct References {
  Percentiles unary;
  Percentiles database;
};

// `calls` of each reference, alternating.
StatusOr<References> MeasureReferences(ServerUnderTest& server, UnaryReference& unary,
                                       int calls) {
  std::vector<double> u, d;
  for (int i = 0; i < calls; ++i) {
    const double ms = unary.CallMs();
    if (ms < 0) return InternalError("health check failed");
    u.push_back(ms);
    ASSIGN_OR_RETURN(const double db, server.DatabaseRoundTripMs());
    d.push_back(db);
  }
  return References{Summarize(u), Summarize(d)};
}

void PrintReferences(const References& r) {
  std::printf("references: gRPC unary (health Check) p50 %.3f p99 %.3f ms; PostgreSQL SELECT 1"
              " p50 %.3f p99 %.3f ms\n",
              r.unary.p50_ms, r.unary.p99_ms, r.database.p50_ms, r.database.p99_ms);
}

v1::JobSpec BenchSpec(const std::string& device_uuid) {
  v1::JobSpec spec;
  spec.add_families("memory.coalescing");
  spec.mutable_selector()->set_gpu_uuid(device_uuid);
  spec.set_max_attempts(1);
  return spec;
}

Status Submit(v1::JobService::Stub& jobs, const std::string& token, const v1::JobSpec& spec,
              v1::Job* job) {
  grpc::ClientContext context;
  ServerUnderTest::Authorize(context, token);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  v1::SubmitJobRequest request;
  *request.mutable_spec() = spec;
  const grpc::Status s = jobs.SubmitJob(&context, request, job);
  if (s.ok()) return OkStatus();
  return Status(static_cast<StatusCode>(static_cast<int>(s.error_code())),
                "SubmitJob: " + s.error_message());
}

// ---- lease ----------------------------------------------------------------------------------

Status RunLease(ServerUnderTest& server, UnaryReference& unary, int submits) {
  SimWorker worker(server, 0);
  RETURN_IF_ERROR(worker.Register());
  auto jobs = v1::JobService::NewStub(server.NewChannel());
  std::vector<double> lease_ms, submit_ms, unary_ms, db_ms;
  for (int i = 0; i < submits; ++i) {
    // The poll is parked on the server before the submit: it claims once (nothing queued), then
    // waits on the notifier. 20 ms is ~10x what that first claim takes here.
    Clock::time_point leased_at;
    std::future<Status> poll = std::async(std::launch::async, [&] {
      Status s = worker.Acquire(30);
      leased_at = Clock::now();
      return s;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    v1::Job job;
    const auto start = Clock::now();
    RETURN_IF_ERROR(Submit(*jobs, server.submitter_token(), BenchSpec(worker.device_uuid()), &job));
    submit_ms.push_back(MsSince(start));
    RETURN_IF_ERROR(poll.get());
    if (worker.job_id() != job.id()) {
      return InternalError("submit " + std::to_string(i) + ": leased job " +
                           std::to_string(worker.job_id()) + ", submitted " +
                           std::to_string(job.id()));
    }
    lease_ms.push_back(std::chrono::duration<double, std::milli>(leased_at - start).count());
    RETURN_IF_ERROR(worker.Finish(v1::JOB_OUTCOME_FAILED));
    unary_ms.push_back(unary.CallMs());
    ASSIGN_OR_RETURN(const double db, server.DatabaseRoundTripMs());
    db_ms.push_back(db);
  }
  const Percentiles lease = Summarize(lease_ms), submit = Summarize(submit_ms);
  const Percentiles u = Summarize(unary_ms), d = Summarize(db_ms);
  std::printf("\n== lease: submit -> the long-polling worker holds the lease (%d submits)\n",
              submits);
  std::printf("%-44s %8s %8s %8s\n", "ms", "p50", "p99", "max");
  std::printf("%-44s %8.2f %8.2f %8.2f\n", "submit -> lease held (SubmitJob included)",
              lease.p50_ms, lease.p99_ms, lease.max_ms);
  std::printf("%-44s %8.2f %8.2f %8.2f\n", "  of which the SubmitJob call", submit.p50_ms,
              submit.p99_ms, submit.max_ms);
  std::printf("%-44s %8.2f %8.2f %8.2f\n", "ref: gRPC unary (health Check)", u.p50_ms, u.p99_ms,
              u.max_ms);
  std::printf("%-44s %8.2f %8.2f %8.2f\n", "ref: PostgreSQL SELECT 1", d.p50_ms, d.p99_ms,
              d.max_ms);
  std::printf("lease / gRPC unary: p50 %.1fx, p99 %.1fx; goal p50 <= 10 ms %s, p99 <= 50 ms %s\n",
              lease.p50_ms / u.p50_ms, lease.p99_ms / u.p99_ms, Goal(lease.p50_ms <= 10),
              Goal(lease.p99_ms <= 50));
  return OkStatus();
}

// ---- ingest ---------------------------------------------------------------------------------

// Measurements of the H100 fixture with exactly 100 samples each, as templates.
StatusOr<std::vector<v1::Measurement>> IngestTemplates(const std::string& fixture) {
  std::ifstream in(fixture);
  if (!in) return NotFoundError("cannot read " + fixture);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  v1::RunResult run;
  RETURN_IF_ERROR(server::detail::MessageFromJson(text, &run));
  std::vector<v1::Measurement> out;
  for (v1::Measurement m : run.measurements()) {
    if (m.samples_seconds_size() == 0) continue;
    auto resize = [](auto* field, int n) {
      while (field->size() > n) field->RemoveLast();
      while (field->size() > 0 && field->size() < n) field->Add(field->Get(field->size() - 1));
    };
    resize(m.mutable_samples_seconds(), 100);
    resize(m.mutable_sample_sm_clock_mhz(), 100);
    resize(m.mutable_sample_throttled(), 100);
    resize(m.mutable_sample_kernel_seconds(), 100);
    resize(m.mutable_sample_group(), 100);
    m.set_sample_count(100);
    out.push_back(std::move(m));
  }
  if (out.empty()) return InvalidArgumentError(fixture + ": no measurement with samples");
  return out;
}

Status RunIngest(ServerUnderTest& server, const References& refs, int workers, int measurements,
                 const std::string& fixture) {
  ASSIGN_OR_RETURN(const std::vector<v1::Measurement> templates, IngestTemplates(fixture));
  auto jobs = v1::JobService::NewStub(server.NewChannel());
  std::vector<std::unique_ptr<SimWorker>> sims;
  for (int w = 0; w < workers; ++w) {
    sims.push_back(std::make_unique<SimWorker>(server, w));
    RETURN_IF_ERROR(sims.back()->Register());
    v1::Job job;
    RETURN_IF_ERROR(Submit(*jobs, server.submitter_token(), BenchSpec(sims.back()->device_uuid()),
                           &job));
    RETURN_IF_ERROR(sims.back()->Acquire(10));
    if (sims.back()->run_id() == 0) return InternalError("worker " + std::to_string(w) + " got no job");
  }
  // Every worker's batches, built before the clock starts; case keys unique within a run.
  constexpr int kBatch = 64;  // the worker's uploader batch (worker/daemon)
  const int per_worker = measurements / workers;
  std::vector<std::vector<std::vector<v1::Measurement>>> batches(workers);
  size_t request_bytes = 0;
  for (int w = 0; w < workers; ++w) {
    for (int i = 0; i < per_worker; ++i) {
      if (i % kBatch == 0) batches[w].emplace_back();
      v1::Measurement m = templates[i % templates.size()];
      m.mutable_case_()->set_canonical(m.case_().canonical() + "&ingest=" + std::to_string(i));
      request_bytes += m.ByteSizeLong();
      batches[w].back().push_back(std::move(m));
    }
  }
  ASSIGN_OR_RETURN(const ProcessUse before, server.Use());
  std::vector<std::future<Status>> done;
  std::vector<double> call_ms;
  std::mutex mu;  // guards call_ms
  const auto start = Clock::now();
  for (int w = 0; w < workers; ++w) {
    done.push_back(std::async(std::launch::async, [&, w]() -> Status {
      for (const auto& batch : batches[w]) {
        const auto t = Clock::now();
        RETURN_IF_ERROR(sims[w]->Upload(batch));
        std::lock_guard<std::mutex> lock(mu);
        call_ms.push_back(MsSince(t));
      }
      return OkStatus();
    }));
  }
  for (auto& f : done) RETURN_IF_ERROR(f.get());
  const double seconds = MsSince(start) / 1000;
  ASSIGN_OR_RETURN(const ProcessUse after, server.Use());
  const int total = per_worker * workers;
  const double rate = total / seconds;
  const double cpu_per_1000 = (after.cpu_seconds - before.cpu_seconds) / total * 1000;
  const Percentiles calls = Summarize(call_ms);
  std::printf("\n== ingest: %d workers upload %d measurements of 100 samples (batches of %d,"
              " %.1f KB per measurement)\n",
              workers, total, kBatch, request_bytes / 1024.0 / total);
  std::printf("measurements per second: %.0f (%.2f s); goal >= 10000/s %s\n", rate, seconds,
              Goal(rate >= 10000));
  std::printf("server CPU per 1000 measurements: %.3f s (%.2f cores busy on average)\n",
              cpu_per_1000, (after.cpu_seconds - before.cpu_seconds) / seconds);
  std::printf("UploadMeasurements call (64 measurements) p50 %.2f p99 %.2f ms = %.1fx / %.1fx a"
              " PostgreSQL round trip (p50 %.3f ms)\n",
              calls.p50_ms, calls.p99_ms, calls.p50_ms / refs.database.p50_ms,
              calls.p99_ms / refs.database.p50_ms, refs.database.p50_ms);
  for (auto& s : sims) RETURN_IF_ERROR(s->Finish(v1::JOB_OUTCOME_FAILED));
  return OkStatus();
}

// ---- fleet ----------------------------------------------------------------------------------

// N workers' long-polls and heartbeats, driven through gRPC's callback API so that the
// benchmark needs no thread per simulated worker.
class Fleet {
 public:
  explicit Fleet(std::vector<std::unique_ptr<SimWorker>> workers) : workers_(std::move(workers)) {}

  // Re-issues each worker's AcquireJob as soon as the previous one returns, until Stop().
  void StartPolls() {
    polls_.resize(workers_.size());
    for (size_t i = 0; i < workers_.size(); ++i) Poll(i);
  }
  // One heartbeat of worker i; its latency lands in heartbeat_ms().
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
          {
            std::lock_guard<std::mutex> lock(mu_);
            if (s.ok()) {
              heartbeat_ms_.push_back(ms);
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
  std::vector<double> heartbeat_ms() {
    std::lock_guard<std::mutex> lock(mu_);
    return heartbeat_ms_;
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
  std::vector<double> heartbeat_ms_;              // guarded by mu_
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
  Fleet fleet(std::move(workers));
  fleet.StartPolls();

  std::atomic<bool> stop{false};
  std::vector<double> health_ms;
  int health_errors = 0;
  std::thread health([&] {
    while (!stop) {
      const double ms = unary.CallMs();
      if (ms < 0) ++health_errors; else health_ms.push_back(ms);
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
  const std::vector<double> hb = fleet.heartbeat_ms();
  if (hb.empty()) return InternalError("no heartbeat answered");
  const Percentiles h = Summarize(hb);
  const Percentiles hc = health_ms.empty() ? Percentiles{} : Summarize(health_ms);
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
  std::printf("server: threads %d idle -> %d peak; RSS %.0f -> %.0f MiB; database connections"
              " %d -> %d; CPU %.2f cores on average\n",
              idle.threads, peak.threads, idle.rss_mib, peak.rss_mib, idle_db, peak_db,
              cpu / seconds);
  return OkStatus();
}

int Main(int argc, char** argv) {
  std::string scenario = "all";
  std::string server_path = WARPWATCH_SERVER_PATH;
  std::string fixture = WARPWATCH_SOURCE_DIR "/tests/fixtures/h100_nightly.json";
  int submits = 1000, ingest_workers = 8, ingest_measurements = 40000, fleet_workers = 1000;
  int fleet_seconds = 30, reference_calls = 200;
  std::vector<std::string> server_flags;
  CLI::App app{"warpwatch-server under load: lease latency, ingest rate, a fleet of workers"};
  app.add_option("--scenario", scenario)->check(CLI::IsMember({"all", "lease", "ingest", "fleet"}));
  app.add_option("--server", server_path, "warpwatch-server executable");
  app.add_option("--fixture", fixture, "run file whose measurements the ingest uploads");
  app.add_option("--submits", submits)->check(CLI::Range(1, 100000));
  app.add_option("--ingest-workers", ingest_workers)->check(CLI::Range(1, 256));
  app.add_option("--ingest-measurements", ingest_measurements)->check(CLI::Range(1, 10000000));
  app.add_option("--fleet-workers", fleet_workers)->check(CLI::Range(1, 20000));
  app.add_option("--fleet-seconds", fleet_seconds)->check(CLI::Range(1, 3600));
  app.add_option("--reference-calls", reference_calls)->check(CLI::Range(1, 100000));
  app.add_option("--server-flag", server_flags, "extra flag for the server (repeatable)");
  CLI11_PARSE(app, argc, argv);

  const int tokens = std::max({1, ingest_workers, fleet_workers});
  auto server = ServerUnderTest::Start(server_path, tokens, server_flags);
  if (!server.ok()) {
    std::fprintf(stderr, "setup: %s\n", server.status().ToString().c_str());
    return 1;
  }
  std::printf("server %s, log %s; host: %u cores\n", server_path.c_str(),
              (*server)->log_path().c_str(), std::thread::hardware_concurrency());
  UnaryReference unary(**server, (*server)->submitter_token());
  auto refs = MeasureReferences(**server, unary, reference_calls);
  if (!refs.ok()) {
    std::fprintf(stderr, "references: %s\n", refs.status().ToString().c_str());
    return 1;
  }
  PrintReferences(*refs);
  std::fflush(stdout);
  Status status;
  if (status.ok() && (scenario == "all" || scenario == "lease")) {
    status = RunLease(**server, unary, submits);
  }
  std::fflush(stdout);
  if (status.ok() && (scenario == "all" || scenario == "ingest")) {
    status = RunIngest(**server, *refs, ingest_workers, ingest_measurements, fixture);
  }
  std::fflush(stdout);
  if (status.ok() && (scenario == "all" || scenario == "fleet")) {
    status = RunFleet(**server, unary, *refs, fleet_workers, fleet_seconds);
  }
  if (!status.ok()) {
    std::fprintf(stderr, "%s\nserver log: %s\n", status.ToString().c_str(),
                 (*server)->log_path().c_str());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace warpwatch::bench

int main(int argc, char** argv) { return warpwatch::bench::Main(argc, argv); }
