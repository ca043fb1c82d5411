// bench_analysis_scale: issue 22's scale target. One night of a fleet (default 1000 GPUs of one
// model x the 144 cases of the nightly suite) analysed by the server's real AnalysisLoop against a
// throwaway PostgreSQL 15 holding the fleet's earlier nights (default 14), which it loads itself
// with server-side SQL: case keys and medians of tests/fixtures/h100_nightly.json, a per-GPU
// offset (up to 1.5 %), a per-case between-run noise (0.1 to 1 %), 50 samples per point, seeded.
// Every run is the job of its night's schedule run (as the scheduler makes them), so the fleet
// view is the night's. The first --slowed-gpus GPUs run the new night 5 % slower, so findings,
// fleet outliers and confirmation jobs are written too. Prints the whole night's time, per-run
// p50/p99/max, the CPU time of this process (the analysis) and of PostgreSQL, the statements that
// cost most (pg_stat_statements), and PASS or MISSED against 10 minutes for 1000 x 144 runs x
// cases, scaled to the size run.
//   build/bin/bench_analysis_scale [--gpus 1000] [--nights 14] [--cases 144] [--seed 42]
//                                  [--slowed-gpus 3] [--server-cpus 0] [--pg-cpus 1]
// Why the AnalysisLoop and not AnalyzeNextRun in a loop: the loop is what a server replica runs
// (one thread; each pass also cancels stale confirmations and opens abandoned suspects), so its
// time is the night's; the per-run time is the gap between successive runs' on_analysed calls.
// After each analysed run the loop's thread sweeps incidents (explains the run's new findings,
// groups them, refreshes every active incident), as server/runtime's on_analysed does, so the
// night's time includes it; --no-incidents leaves the sweep out, to show what it costs.
// Exit status 1 when the database could not be set up or a run failed to analyse; a missed
// target is printed (MISSED), not an error. ctest runs it tiny.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "bench/detail/cpu_placement.h"
#include "bench/detail/fleet_nights.h"
#include "bench/detail/history_load.h"
#include "bench/detail/nightly_suite.h"
#include "bench/detail/process_cpu.h"
#include "bench/detail/statement_stats.h"
#include "server/analysis/analysis_loop.h"
#include "server/analysis/run_analyzer.h"
#include "server/incidents/incident_sweep.h"
#include "server/store/detail/conversions.h"
#include "server/store/migrations.h"
#include "server/store/pg_analysis_store.h"
#include "server/store/pg_incident_store.h"
#include "tests/support/postgres_server.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::bench {
namespace {

// issue 22: one night of 1000 GPUs x 144 cases within 10 minutes.
constexpr double kTargetSeconds = 600;
constexpr double kTargetCaseRuns = 1000.0 * 144;

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double Percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())));
  return v[i];
}

void PrintLoad(const char* when) {
  std::ifstream in("/proc/loadavg");
  std::string line;
  std::getline(in, line);
  std::printf("load average %s: %s\n", when, line.c_str());
}

// Counts runs as the loop analyses them, with the time of each; Wait returns when `total` runs
// were claimed or `deadline` passed.
class Progress {
 public:
  explicit Progress(int total) : total_(total), last_(Clock::now()) {}
  void Start() {
    std::lock_guard<std::mutex> lock(mu_);
    last_ = Clock::now();
  }
  void Analysed(const server::analysis::RunAnalysisSummary& s) {
    std::lock_guard<std::mutex> lock(mu_);
    const Clock::time_point now = Clock::now();
    run_seconds_.push_back(std::chrono::duration<double>(now - last_).count());
    last_ = now;
    findings_ += s.findings;
    confirmations_ += s.confirmation_job_id != 0 ? 1 : 0;
    judged_ += s.coverage.judged;
    if (run_seconds_.size() % 100 == 0) {
      std::printf("  analysed %zu/%d runs\n", run_seconds_.size(), total_);
      std::fflush(stdout);
    }
    cv_.notify_all();
  }
  bool Wait(const server::analysis::AnalysisLoop& loop, Clock::time_point deadline) {
    std::unique_lock<std::mutex> lock(mu_);
    while (static_cast<int>(run_seconds_.size()) + loop.errors() < total_) {
      if (cv_.wait_until(lock, std::min(deadline, Clock::now() + std::chrono::seconds(1))) ==
              std::cv_status::timeout &&
          Clock::now() >= deadline) {
        return false;
      }
    }
    return true;
  }
  std::vector<double> run_seconds() const {
    std::lock_guard<std::mutex> lock(mu_);
    return run_seconds_;
  }
  // One incident sweep after an analysed run took `seconds` (inside the run's time).
  void Swept(double seconds, const server::incidents::SweepSummary& s) {
    std::lock_guard<std::mutex> lock(mu_);
    sweep_seconds_.push_back(seconds);
    explained_ += s.explained;
  }
  std::vector<double> sweep_seconds() const {
    std::lock_guard<std::mutex> lock(mu_);
    return sweep_seconds_;
  }
  int explained() const {
    std::lock_guard<std::mutex> lock(mu_);
    return explained_;
  }
  int findings() const { return findings_; }
  int confirmations() const { return confirmations_; }
  long long judged() const { return judged_; }

 private:
  const int total_;
  mutable std::mutex mu_;       // guards everything below
  std::condition_variable cv_;  // notified after each analysed run
  Clock::time_point last_;
  std::vector<double> run_seconds_;
  std::vector<double> sweep_seconds_;
  int explained_ = 0;
  int findings_ = 0;
  int confirmations_ = 0;
  long long judged_ = 0;
};

void PrintOutcome(const std::string& url) {
  pqxx::connection conn(url);
  pqxx::work tx(conn);
  std::printf("database: %s measurements, %s runs, %s\n",
              tx.exec1("SELECT count(*) FROM measurement")[0].c_str(),
              tx.exec1("SELECT count(*) FROM run")[0].c_str(),
              tx.exec1("SELECT pg_size_pretty(pg_database_size(current_database()))")[0].c_str());
  for (const pqxx::row& r :
       tx.exec("SELECT analysis_state, count(*) FROM run GROUP BY 1 ORDER BY 1"))
    std::printf("  runs %s: %s\n", r[0].c_str(), r[1].c_str());
  for (const pqxx::row& r :
       tx.exec("SELECT kind, state, count(*) FROM regression GROUP BY 1, 2 ORDER BY 1, 2"))
    std::printf("  regression rows %s %s: %s\n", r[0].c_str(), r[1].c_str(), r[2].c_str());
  for (const pqxx::row& r :
       tx.exec("SELECT kind, cause_class, state, count(*), sum(findings) FROM incident"
               " GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"))
    std::printf("  incidents %s %s %s: %s (%s findings)\n", r[0].c_str(), r[1].c_str(),
                r[2].c_str(), r[3].c_str(), r[4].c_str());
  std::printf("  confirmation jobs: %s\n",
              tx.exec1("SELECT count(*) FROM job WHERE confirms_run_id IS NOT NULL")[0].c_str());
  std::fflush(stdout);
}

int Main(int argc, char** argv) {
  FleetShape shape;
  int nights = 14;
  int max_cases = 144;
  std::string suite_file = WARPWATCH_SOURCE_DIR "/tests/fixtures/h100_nightly.json";
  std::string shared_buffers = "1GB";
  std::string server_cpus, pg_cpus;
  double max_minutes = 120;
  bool no_incidents = false;
  shape.slowed_gpus = 3;
  CLI::App app{"one night of a fleet through the analysis loop and PostgreSQL"};
  app.add_option("--gpus", shape.gpus, "GPUs of the fleet (one model)")
      ->check(CLI::Range(2, 100000));
  app.add_option("--nights", nights, "nights of analysed history before the new one")
      ->check(CLI::Range(1, 3650));
  app.add_option("--cases", max_cases, "the suite's first N cases (144: all)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--seed", shape.seed, "seed of the GPU offsets, case noise and medians");
  app.add_option("--samples", shape.samples, "samples per point")->check(CLI::Range(1, 10000));
  app.add_option("--slowed-gpus", shape.slowed_gpus,
                 "GPUs whose new night is --slowdown slower on every case");
  app.add_option("--slowdown", shape.slowdown, "relative slowdown of the slowed GPUs");
  app.add_option("--suite", suite_file, "run file whose cases and medians the fleet runs");
  app.add_option("--shared-buffers", shared_buffers, "PostgreSQL shared_buffers");
  app.add_option("--server-cpus", server_cpus,
                 "CPUs the analysis (this process) runs on, e.g. 0 (default: as started)");
  app.add_option("--pg-cpus", pg_cpus, "CPUs PostgreSQL runs on, e.g. 1 (default: as started)");
  app.add_option("--max-minutes", max_minutes, "give up the night after this long");
  app.add_flag("--no-incidents", no_incidents,
               "do not sweep incidents after each analysed run (the server does)");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);  // the loop logs every run at info

  auto suite = SuiteFromRunFile(suite_file);
  auto spec = SpecJsonFromRunFile(suite_file);
  auto doc = DocTemplateFromRunFile(suite_file);
  if (!suite.ok() || !spec.ok() || !doc.ok()) {
    std::fprintf(stderr, "suite: %s\n",
                 (!suite.ok()  ? suite.status()
                  : !spec.ok() ? spec.status()
                               : doc.status())
                     .ToString()
                     .c_str());
    return 1;
  }
  if (static_cast<int>(suite->size()) > max_cases) suite->resize(max_cases);
  v1::Measurement doc_pb;
  if (!server::detail::MessageFromJson(*doc, &doc_pb).ok()) return 1;
  shape.doc_pb = doc_pb.SerializeAsString();
  shape.spec_json = *spec;
  const int cases = static_cast<int>(suite->size());

  // PostgreSQL inherits this process' affinity when it starts; the analysis moves after.
  if (!pg_cpus.empty()) {
    auto cpus = ParseCpuList(pg_cpus);
    if (!cpus.ok() || !PinThisProcess(*cpus).ok()) {
      std::fprintf(stderr, "--pg-cpus %s: cannot pin\n", pg_cpus.c_str());
      return 1;
    }
  }
  auto pg = testing::PostgresServer::Create({"shared_buffers=" + shared_buffers,
                                             "shared_preload_libraries=pg_stat_statements",
                                             "pg_stat_statements.track_planning=on"});
  if (!pg.ok()) {
    std::fprintf(stderr, "postgres: %s\n", pg.status().ToString().c_str());
    return 1;
  }
  if (!server_cpus.empty()) {
    auto cpus = ParseCpuList(server_cpus);
    if (!cpus.ok() || !PinThisProcess(*cpus).ok()) {
      std::fprintf(stderr, "--server-cpus %s: cannot pin\n", server_cpus.c_str());
      return 1;
    }
  }
  std::printf("placement: PostgreSQL on CPUs %s, analysis on CPUs %s\n",
              pg_cpus.empty() ? "(as started)" : pg_cpus.c_str(),
              server_cpus.empty() ? "(as started)" : server_cpus.c_str());
  auto url = (*pg)->CreateDatabase("scale");
  if (!url.ok() || !server::RunMigrations(*url).ok()) {
    std::fprintf(stderr, "database setup failed\n");
    return 1;
  }

  std::printf("loading %d nights x %d GPUs x %d cases (%d samples a point)\n", nights, shape.gpus,
              cases, shape.samples);
  std::fflush(stdout);
  const auto load_start = Clock::now();
  Status loaded = LoadFleetHistory(*url, shape, *suite, nights, [](int night, int of) {
    std::printf("  loaded night %d/%d\n", night, of);
    std::fflush(stdout);
  });
  if (loaded.ok()) loaded = InsertPendingNight(*url, shape, *suite, nights, nights);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s\n", loaded.ToString().c_str());
    return 1;
  }
  std::printf("load: %.0f s\n", SecondsSince(load_start));
  PrintOutcome(*url);

  server::PgStoreOptions options;
  options.url = *url;
  options.pool_size = 2;
  options.statement_timeout = std::chrono::milliseconds(0);  // measure, do not cut
  auto store = server::OpenPgAnalysisStore(options);
  if (!store.ok()) return 1;
  auto incident_store = server::OpenPgIncidentStore(options);
  if (!incident_store.ok()) return 1;
  ResetStatementStats(*url);
  Progress progress(shape.gpus);
  server::analysis::AnalysisLoopOptions loop_options;
  loop_options.on_analysed = [&](const server::analysis::RunAnalysisSummary& s) {
    if (!no_incidents) {
      const auto sweep_start = Clock::now();
      StatusOr<server::incidents::SweepSummary> swept =
          server::incidents::SweepIncidents(**incident_store);
      if (!swept.ok()) {
        std::fprintf(stderr, "incident sweep: %s\n", swept.status().ToString().c_str());
      } else {
        progress.Swept(SecondsSince(sweep_start), *swept);
      }
    }
    progress.Analysed(s);
  };
  server::analysis::AnalysisLoop loop(store->get(), loop_options);

  PrintLoad("before the night");
  const double pg_cpu_before = PostgresCpuSeconds((*pg)->dir() + "/data");
  const double cpu_before = SelfCpuSeconds();
  const auto start = Clock::now();
  progress.Start();
  loop.Start();
  const bool done = progress.Wait(
      loop, start + std::chrono::milliseconds(static_cast<int64_t>(max_minutes * 60000)));
  const double night_seconds = SecondsSince(start);
  loop.Stop();
  const double cpu = SelfCpuSeconds() - cpu_before;
  const double pg_cpu = PostgresCpuSeconds((*pg)->dir() + "/data") - pg_cpu_before;
  PrintLoad("after the night");

  const std::vector<double> runs = progress.run_seconds();
  std::printf(
      "\nnight: %zu of %d runs analysed (%lld errors) in %.1f s; %lld cases judged, "
      "%d findings, %d confirmation jobs\n",
      runs.size(), shape.gpus, static_cast<long long>(loop.errors()), night_seconds,
      progress.judged(), progress.findings(), progress.confirmations());
  std::printf(
      "per run: p50 %.1f ms, p99 %.1f ms, max %.1f ms (first run %.1f ms: it computes the "
      "model-wide noise of every series)\n",
      1e3 * Percentile(runs, 0.5), 1e3 * Percentile(runs, 0.99), 1e3 * Percentile(runs, 1.0),
      runs.empty() ? 0.0 : 1e3 * runs.front());
  const std::vector<double> sweeps = progress.sweep_seconds();
  double sweep_total = 0;
  for (double x : sweeps) sweep_total += x;
  if (no_incidents) {
    std::printf("incident sweep: left out (--no-incidents)\n");
  } else {
    std::printf(
        "incident sweep after each run: %.1f s in all (%.0f %% of the night), p50 %.1f ms, p99 "
        "%.1f ms, max %.1f ms; %d findings explained\n",
        sweep_total, night_seconds > 0 ? 100 * sweep_total / night_seconds : 0.0,
        1e3 * Percentile(sweeps, 0.5), 1e3 * Percentile(sweeps, 0.99),
        1e3 * Percentile(sweeps, 1.0), progress.explained());
  }
  std::printf("CPU: analysis process %.1f s (%.0f %% of one core), PostgreSQL %.1f s\n", cpu,
              100 * cpu / night_seconds, pg_cpu);
  PrintOutcome(*url);
  PrintStatementStats(*url, 15, 1, 150);  // by total time: per-run statements first

  const double target = kTargetSeconds * shape.gpus * cases / kTargetCaseRuns;
  const bool pass = done && night_seconds <= target;
  std::printf(
      "\n%s: one night of %d GPUs x %d cases analysed in %.1f s; target %.1f s "
      "(10 min for 1000 x 144, scaled)%s\n",
      pass ? "PASS" : "MISSED", shape.gpus, cases, night_seconds, target,
      done ? "" : " [gave up before the night was analysed]");
  return loop.errors() == 0 && done ? 0 : 1;
}

}  // namespace
}  // namespace warpwatch::bench

int main(int argc, char** argv) { return warpwatch::bench::Main(argc, argv); }
