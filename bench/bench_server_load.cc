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
//           measurements per second and the server's CPU seconds per 1000 measurements. With
//           --ingest-paths json copy [--ingest-rounds N]: each server ingest path on a fresh
//           PostgreSQL and server, alternating, side by side.
//   parked  --parked-workers workers (one GPU each) keep an AcquireJob long-poll open while
//           --parked-submits jobs are submitted one at a time, each for one of their GPUs:
//           submit -> lease latency and the server's claim transactions per submit.
//   fleet   --fleet-workers workers, each with its own token and connection, keep an AcquireJob
//           long-poll open and heartbeat every second for --fleet-seconds: heartbeat latency,
//           health-check latency (every 100 ms), and the server's threads, memory and
//           database connections, sampled every second.
//
//   build/bin/bench_server_load [--scenario all|lease|ingest|fleet|parked] [--server PATH] ...
//       [--server-cpus 0,1 [--client-cpus 2-15]]
// --server-cpus pins PostgreSQL and the server to those CPUs and the benchmark (the simulated
// workers) to the others (or --client-cpus): the server side measured on N cores of its own.
// Without it everything shares whatever CPUs the benchmark was started on (e.g. taskset -c 0,1).
// Exit status 1 when the setup failed or a call answered wrongly; a missed goal is printed.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench/detail/cpu_placement.h"
#include "bench/detail/fleet_scenario.h"
#include "bench/detail/parked_scenario.h"
#include "bench/detail/load_references.h"
#include "bench/detail/paired_latency.h"
#include "bench/detail/server_under_test.h"
#include "bench/detail/sim_worker.h"
#include "server/store/detail/conversions.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::bench {
namespace {

using Clock = LoadClock;

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

// Returns the measurements per second.
StatusOr<double> RunIngest(ServerUnderTest& server, const References& refs, int workers,
                           int measurements, const std::string& fixture,
                           const std::string& label = "") {
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
  std::printf("\n== ingest%s: %d workers upload %d measurements of 100 samples (batches of %d,"
              " %.1f KB per measurement)\n",
              label.c_str(), workers, total, kBatch, request_bytes / 1024.0 / total);
  std::printf("measurements per second: %.0f (%.2f s); goal >= 10000/s %s\n", rate, seconds,
              Goal(rate >= 10000));
  std::printf("server CPU per 1000 measurements: %.3f s (%.2f cores busy on average)\n",
              cpu_per_1000, (after.cpu_seconds - before.cpu_seconds) / seconds);
  std::printf("UploadMeasurements call (64 measurements) p50 %.2f p99 %.2f ms = %.1fx / %.1fx a"
              " PostgreSQL round trip (p50 %.3f ms)\n",
              calls.p50_ms, calls.p99_ms, calls.p50_ms / refs.database.p50_ms,
              calls.p99_ms / refs.database.p50_ms, refs.database.p50_ms);
  for (auto& s : sims) RETURN_IF_ERROR(s->Finish(v1::JOB_OUTCOME_FAILED));
  return rate;
}

// The ingest of each server --ingest-path in `paths`, side by side: `rounds` rounds, each
// starting a fresh PostgreSQL and server per path (paths alternate, so drift on a shared host
// hits both), then the rates per round and their means.
Status RunIngestPaths(const std::string& server_path, const std::vector<std::string>& flags,
                      const References& refs, int workers, int measurements,
                      const std::string& fixture, const std::vector<std::string>& paths,
                      int rounds) {
  std::vector<std::vector<double>> rates(paths.size());
  for (int round = 0; round < rounds; ++round) {
    for (size_t p = 0; p < paths.size(); ++p) {
      std::vector<std::string> with_path = flags;
      with_path.insert(with_path.end(), {"--ingest-path", paths[p]});
      ASSIGN_OR_RETURN(std::unique_ptr<ServerUnderTest> server,
                       ServerUnderTest::Start(server_path, workers, with_path));
      ASSIGN_OR_RETURN(const double rate,
                       RunIngest(*server, refs, workers, measurements, fixture,
                                 " (--ingest-path " + paths[p] + ", round " +
                                     std::to_string(round + 1) + ")"));
      rates[p].push_back(rate);
      std::fflush(stdout);
    }
  }
  std::printf("\n== ingest side by side (measurements/s; fresh PostgreSQL and server each)\n");
  std::printf("%-14s", "--ingest-path");
  for (int round = 0; round < rounds; ++round) std::printf("  round %-5d", round + 1);
  std::printf("  mean\n");
  std::vector<double> means;
  for (size_t p = 0; p < paths.size(); ++p) {
    double sum = 0;
    std::printf("%-14s", paths[p].c_str());
    for (double r : rates[p]) {
      std::printf("  %11.0f", r);
      sum += r;
    }
    means.push_back(sum / rounds);
    std::printf("  %.0f %s\n", means.back(), Goal(means.back() >= 10000));
  }
  for (size_t p = 1; p < paths.size(); ++p) {
    std::printf("%s / %s: %.2fx\n", paths[p].c_str(), paths[0].c_str(), means[p] / means[0]);
  }
  return OkStatus();
}

// Pins this process, and so the PostgreSQL and server it starts next, to `server_cpus`; returns
// the CPUs the benchmark moves to once they run (`client_cpus`, or every other CPU).
StatusOr<cpu_set_t> PlaceServer(const std::string& server_cpus, const std::string& client_cpus) {
  ASSIGN_OR_RETURN(const cpu_set_t server, ParseCpuList(server_cpus));
  cpu_set_t client = CpusOtherThan(server);
  if (!client_cpus.empty()) {
    ASSIGN_OR_RETURN(client, ParseCpuList(client_cpus));
  }
  if (CPU_COUNT(&client) == 0) {
    return InvalidArgumentError("--server-cpus " + server_cpus +
                                " leaves no CPU for the benchmark itself");
  }
  RETURN_IF_ERROR(PinThisProcess(server));
  std::printf("placement: PostgreSQL and server on CPUs %s, benchmark on CPUs %s\n",
              CpuListString(server).c_str(), CpuListString(client).c_str());
  return client;
}

int Main(int argc, char** argv) {
  std::string scenario = "all";
  std::string server_path = WARPWATCH_SERVER_PATH;
  std::string fixture = WARPWATCH_SOURCE_DIR "/tests/fixtures/h100_nightly.json";
  int submits = 1000, ingest_workers = 8, ingest_measurements = 40000, fleet_workers = 1000;
  int fleet_seconds = 30, reference_calls = 200, parked_workers = 1000, parked_submits = 100;
  std::vector<std::string> server_flags;
  std::string server_cpus, client_cpus;
  std::vector<std::string> ingest_paths;
  int ingest_rounds = 1;
  CLI::App app{"warpwatch-server under load: lease latency, ingest rate, a fleet of workers"};
  app.add_option("--scenario", scenario)->check(CLI::IsMember({"all", "lease", "ingest", "fleet", "parked"}));
  app.add_option("--server", server_path, "warpwatch-server executable");
  app.add_option("--fixture", fixture, "run file whose measurements the ingest uploads");
  app.add_option("--submits", submits)->check(CLI::Range(1, 100000));
  app.add_option("--ingest-workers", ingest_workers)->check(CLI::Range(1, 256));
  app.add_option("--ingest-measurements", ingest_measurements)->check(CLI::Range(1, 10000000));
  app.add_option("--ingest-paths", ingest_paths,
                 "compare these server --ingest-path values (e.g. json copy), each on a fresh "
                 "PostgreSQL and server, instead of ingesting into the main server")
      ->check(CLI::IsMember({"json", "copy"}));
  app.add_option("--ingest-rounds", ingest_rounds, "rounds of --ingest-paths")
      ->check(CLI::Range(1, 20));
  app.add_option("--fleet-workers", fleet_workers)->check(CLI::Range(1, 20000));
  app.add_option("--fleet-seconds", fleet_seconds)->check(CLI::Range(1, 3600));
  app.add_option("--parked-workers", parked_workers)->check(CLI::Range(1, 20000));
  app.add_option("--parked-submits", parked_submits)->check(CLI::Range(1, 20000));
  app.add_option("--reference-calls", reference_calls)->check(CLI::Range(1, 100000));
  app.add_option("--server-flag", server_flags, "extra flag for the server (repeatable)");
  app.add_option("--server-cpus", server_cpus,
                 "CPU list for PostgreSQL and the server (e.g. 0,1); the benchmark runs elsewhere");
  app.add_option("--client-cpus", client_cpus,
                 "CPU list for the benchmark's own threads with --server-cpus (default: the rest)")
      ->needs("--server-cpus");
  CLI11_PARSE(app, argc, argv);

  std::optional<cpu_set_t> client_placement;
  if (!server_cpus.empty()) {
    auto placed = PlaceServer(server_cpus, client_cpus);
    if (!placed.ok()) {
      std::fprintf(stderr, "--server-cpus/--client-cpus: %s\n", placed.status().ToString().c_str());
      return 2;
    }
    client_placement = *placed;
  }

  if (parked_submits > parked_workers) {
    std::fprintf(stderr, "--parked-submits %d: at most --parked-workers (%d)\n", parked_submits,
                 parked_workers);
    return 2;
  }
  const int tokens = std::max({1, ingest_workers, fleet_workers, parked_workers});
  auto server = ServerUnderTest::Start(server_path, tokens, server_flags);
  if (!server.ok()) {
    std::fprintf(stderr, "setup: %s\n", server.status().ToString().c_str());
    return 1;
  }
  if (client_placement) {
    const Status pinned = PinThisProcess(*client_placement);
    if (!pinned.ok()) {
      std::fprintf(stderr, "placement: %s\n", pinned.ToString().c_str());
      return 1;
    }
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
    if (ingest_paths.empty()) {
      status = RunIngest(**server, *refs, ingest_workers, ingest_measurements, fixture).status();
    } else {
      status = RunIngestPaths(server_path, server_flags, *refs, ingest_workers,
                              ingest_measurements, fixture, ingest_paths, ingest_rounds);
    }
  }
  std::fflush(stdout);
  if (status.ok() && (scenario == "all" || scenario == "parked")) {
    status = RunParked(**server, unary, parked_workers, parked_submits);
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
