// bench_history_scale: issue 9's scale target. GetSeries and QueryMeasurements latency (p50, p99,
// max) through the real PgStore on a throwaway PostgreSQL 15 holding one year of nightly runs
// (365 nights x 96 GPUs of 3 models x 286 cases = 10,021,440 measurements), which it loads itself
// with server-side SQL. Each call is paired with a bare round trip on the same pooled connection
// (Store::Ping: BEGIN; SELECT 1; COMMIT) timed just before it, and the table gives both and their
// ratio, so a result taken on a loaded host can still be compared. Then one more call of each
// query runs with auto_explain on, and the plans the store's own statements got (EXPLAIN ANALYZE,
// BUFFERS, with their parameters) are printed from the server's log.
//   build/bin/bench_history_scale [--nights 365] [--queries 200] [--shared-buffers 1GB]
//                                 [--log-slow-ms 10] [--hold-seconds 0] [--load-connections N]
//                                 [--seed 42] [--doc-template tests/fixtures/h100_nightly.json]
//   ... --url URL --server-log FILE: time the database an earlier --hold-seconds run loaded.
//   ... --ingest-rate N [--analysis]: the timed calls run while new nights of the same fleet are
//       uploaded at N measurements/s (100 samples each, the store's COPY ingest) and, with
//       --analysis, while the server's analysis loop judges each uploaded run against the year
//       and sweeps incidents (issue 25 item 5: GetSeries p99 <= 20 ms, QueryMeasurements of a run
//       p99 <= 50 ms then). The background's achieved rate and analysed runs are printed.
// Exit status 1 when a query returned a wrong answer or the database could not be set up; a
// missed latency target is printed (MISSED), not an error. ctest runs it with --nights 3.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <pqxx/pqxx>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench/detail/background_load.h"
#include "bench/detail/history_load.h"
#include "bench/detail/paired_latency.h"
#include "bench/detail/plan_log.h"
#include "bench/detail/statement_stats.h"
#include "server/store/migrations.h"
#include "server/store/pg_store.h"
#include "tests/support/postgres_server.h"

namespace warpwatch::bench {
namespace {

constexpr double kTargetP99Ms = 20;  // issue 9: p99 under 20 ms
// Issue 25 item 5, while ingest and analysis run: GetSeries as above, a run's page 50 ms.
constexpr double kTargetLoadedRunP99Ms = 50;

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void PrintDatabase(const std::string& url) {
  pqxx::connection conn(url);
  pqxx::work tx(conn);
  std::printf("measurements %s, runs %s, database %s, shared_buffers %s\n",
              tx.exec1("SELECT count(*) FROM measurement")[0].c_str(),
              tx.exec1("SELECT count(*) FROM run")[0].c_str(),
              tx.exec1("SELECT pg_size_pretty(pg_database_size(current_database()))")[0].c_str(),
              tx.exec1("SHOW shared_buffers")[0].c_str());
  // One pass over the tables and indexes: size, and for tables how much of them is all-visible
  // (index-only scans skip the heap for those pages).
  for (const pqxx::row& row :
       tx.exec("SELECT c.relname, pg_size_pretty(pg_relation_size(c.oid)), c.relkind,"
               "       c.relallvisible, c.relpages"
               " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
               " WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i')"
               "   AND (c.relname LIKE 'measurement%' OR c.relname LIKE 'run%')"
               " ORDER BY pg_relation_size(c.oid) DESC")) {
    if (std::string(row[2].c_str()) == "r") {
      std::printf("  %-40s %s, %s of %s pages all-visible\n", row[0].c_str(), row[1].c_str(),
                  row[3].c_str(), row[4].c_str());
    } else {
      std::printf("  %-40s %s\n", row[0].c_str(), row[1].c_str());
    }
  }
  std::fflush(stdout);
}

// The benchmark's queries, each a store call with random arguments drawn from `rng`; each returns
// whether the answer had the expected size.
struct Queries {
  server::Store* store;
  const HistoryShape* shape;
  std::mt19937* rng;
  // New nights are being uploaded (--ingest-rate): a series may hold more points than the load
  // gave it, up to the call's limit.
  bool growing = false;

  // Whether `n` points answer a call that the loaded history alone answers with `loaded`.
  bool Size(int n, int loaded, int limit) const {
    return growing ? n >= loaded && n <= limit : n == loaded;
  }
  int Pick(int n) const { return std::uniform_int_distribution<int>(0, n - 1)(*rng); }
  int ModelPoints() const { return shape->nights * (shape->devices / shape->models); }

  bool DeviceSeries() const {
    server::SeriesQuery q;
    q.case_canonical = HistoryShape::CaseKey(Pick(shape->cases));
    q.device_uuid = HistoryShape::Device(Pick(shape->devices));
    q.limit = 400;
    auto s = store->GetSeries(q);
    return s.ok() && Size(s->points_size(), std::min(400, shape->nights), 400);
  }
  bool ModelSeries() const {
    server::SeriesQuery q;
    q.case_canonical = HistoryShape::CaseKey(Pick(shape->cases));
    q.gpu_model = HistoryShape::Model(Pick(shape->models));
    q.limit = 400;
    auto s = store->GetSeries(q);
    return s.ok() && Size(s->points_size(), std::min(400, ModelPoints()), 400);
  }
  bool RunPage() const {
    server::MeasurementQuery q;
    q.run_id = 1 + Pick(shape->nights * shape->devices);
    q.page_size = 100;
    auto page = store->QueryMeasurements(q);
    return page.ok() && static_cast<int>(page->measurements.size()) == std::min(100, shape->cases);
  }
  bool RunGlob() const {
    server::MeasurementQuery q;
    q.run_id = 1 + Pick(shape->nights * shape->devices);
    q.family_glob = "fam1*";
    q.params = {{"n", 1}};
    auto page = store->QueryMeasurements(q);
    return page.ok() && page->measurements.size() == 1;
  }
  bool SeriesPage() const {
    server::MeasurementQuery q;
    q.series_id =
        HistoryShape::CaseKey(Pick(shape->cases)) + "@" + HistoryShape::Model(Pick(shape->models));
    q.page_size = 100;
    auto page = store->QueryMeasurements(q);
    return page.ok() &&
           Size(static_cast<int>(page->measurements.size()), std::min(100, ModelPoints()), 100);
  }
};

struct Query {
  const char* name;
  bool (Queries::*call)() const;
};

constexpr Query kQueries[] = {
    {"GetSeries one device, one year (365 points)", &Queries::DeviceSeries},
    {"GetSeries one GPU model, latest 400 points", &Queries::ModelSeries},
    {"QueryMeasurements one run, page of 100", &Queries::RunPage},
    {"QueryMeasurements one run, family glob + params", &Queries::RunGlob},
    {"QueryMeasurements one series, page of 100", &Queries::SeriesPage},
};

int Main(int argc, char** argv) {
  HistoryShape shape;
  int queries = 200;
  std::string shared_buffers = "1GB";
  int log_slow_ms = 10;
  int hold_seconds = 0;
  std::string existing_url;
  std::string server_log;
  unsigned seed = 42;
  int load_connections = std::max(1u, std::thread::hardware_concurrency() / 2);
  std::string doc_template_file = WARPWATCH_SOURCE_DIR "/tests/fixtures/h100_nightly.json";
  BackgroundOptions background;
  CLI::App app{"GetSeries and QueryMeasurements latency on a year of nightly runs"};
  app.add_option("--nights", shape.nights, "nights of history to load (365: ten million rows)")
      ->check(CLI::Range(1, 3650));
  app.add_option("--queries", queries, "timed calls of each query")->check(CLI::Range(1, 100000));
  app.add_option("--shared-buffers", shared_buffers, "PostgreSQL shared_buffers");
  app.add_option("--partition-runs", shape.partition_runs,
                 "run ids per measurement partition of the loaded year (default: the runs of 30 "
                 "nights, as a server's keeper makes them; 1000 for the week rule's minimum)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40));
  app.add_option("--log-slow-ms", log_slow_ms,
                 "log the plans of timed statements this slow (0: off)")
      ->check(CLI::Range(0, 100000));
  app.add_option("--hold-seconds", hold_seconds,
                 "keep the server up this long at the end, for psql (0: stop at once)");
  app.add_option("--url", existing_url,
                 "time a database an earlier --hold-seconds run loaded (same --nights) instead of "
                 "starting and loading one");
  app.add_option("--server-log", server_log, "with --url: that server's log (for the plans)");
  app.add_option("--load-connections", load_connections,
                 "nights loaded at once (default: half the cores)")
      ->check(CLI::Range(1, 64));
  app.add_option("--seed", seed,
                 "seed of the random cases, devices and runs queried (another seed on a held "
                 "database: calls that did not run before, so their pages are not cached by them)");
  app.add_option("--doc-template", doc_template_file,
                 "run file whose median-size measurement document every row copies");
  app.add_option("--ingest-rate", background.ingest_rate,
                 "upload new nights at this many measurements/s while the calls are timed (0: "
                 "none)")
      ->check(CLI::Range(0.0, 1e6));
  app.add_flag("--analysis", background.analysis,
               "run the analysis loop (and incident sweep) over the uploaded runs meanwhile");
  CLI11_PARSE(app, argc, argv);
  auto doc_template = DocTemplateFromRunFile(doc_template_file);
  if (!doc_template.ok()) {
    std::fprintf(stderr, "%s\n", doc_template.status().ToString().c_str());
    return 1;
  }
  shape.doc_template = *doc_template;
  std::printf("document template: %zu bytes of JSON (median of %s)\n", shape.doc_template.size(),
              doc_template_file.c_str());

  // pg_stat_statements (with planning time) for the server-side view of each statement.
  std::unique_ptr<testing::PostgresServer> pg;
  StatusOr<std::string> url = existing_url;
  if (existing_url.empty()) {
    auto created = testing::PostgresServer::Create({"shared_buffers=" + shared_buffers,
                                                    "shared_preload_libraries=pg_stat_statements",
                                                    "pg_stat_statements.track_planning=on"});
    if (!created.ok()) {
      std::fprintf(stderr, "postgres: %s\n", created.status().ToString().c_str());
      return 1;
    }
    pg = std::move(*created);
    server_log = pg->dir() + "/postgres.log";
    url = pg->CreateDatabase("scale");
    if (!url.ok() || !server::RunMigrations(*url).ok()) {
      std::fprintf(stderr, "database setup failed\n");
      return 1;
    }
    std::printf("loading %d nights x %d devices x %d cases = %lld measurements\n", shape.nights,
                shape.devices, shape.cases, shape.measurements());
    std::fflush(stdout);
    const auto load_start = Clock::now();
    const Status loaded = LoadHistory(*url, shape, load_connections, [&](int done) {
      if (done % 30 == 0 || done == shape.nights) {
        std::printf("loaded %d/%d nights (%.0f s)\n", done, shape.nights, SecondsSince(load_start));
        std::fflush(stdout);
      }
    });
    if (!loaded.ok()) {
      std::fprintf(stderr, "%s\n", loaded.ToString().c_str());
      return 1;
    }
    std::printf("load and VACUUM: %.0f s\n", SecondsSince(load_start));
  } else {
    std::printf("reusing the database loaded at %s (--nights %d)\n", url->c_str(), shape.nights);
  }
  PrintDatabase(*url);

  // The timed calls' connection logs the plan of any statement slower than --log-slow-ms (row
  // and buffer counts, no per-node timing), so a slow tail shows whether PostgreSQL read pages or
  // the host stalled.
  server::PgStoreOptions options;
  options.url = log_slow_ms > 0 ? WithAutoExplain(*url, log_slow_ms, false) : *url;
  options.pool_size = 1;  // every call, and its reference, on the same connection
  auto store = server::OpenPgStore(options);
  if (!store.ok()) return 1;
  std::mt19937 rng(seed);
  ResetStatementStats(*url);
  ServerLog log(server_log);
  log.Mark();
  const bool loaded = background.ingest_rate > 0 || background.analysis;
  // Series grow while the background uploads, or when an earlier --ingest-rate pass on this
  // (held) database uploaded nights beyond the loaded ones.
  bool growing = background.ingest_rate > 0;
  try {
    pqxx::connection conn(*url);
    pqxx::nontransaction tx(conn);
    growing = growing || tx.exec1("SELECT count(*) FROM run")[0].as<long long>() >
                             static_cast<long long>(shape.nights) * shape.devices;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "counting runs: %s\n", e.what());
    return 1;
  }
  Queries q{store->get(), &shape, &rng, growing};
  server::Store* s = store->get();
  (void)s->Ping();  // opens the pool's one connection
  std::unique_ptr<BackgroundLoad> busy;
  if (loaded) {
    auto started = BackgroundLoad::Start(*url, shape, background);
    if (!started.ok()) {
      std::fprintf(stderr, "background: %s\n", started.status().ToString().c_str());
      return 1;
    }
    busy = std::move(*started);
    std::printf("background: ingest %.0f measurements/s of %d samples, analysis %s\n",
                background.ingest_rate, background.samples, background.analysis ? "on" : "off");
    std::this_thread::sleep_for(std::chrono::seconds(5));  // both under way before the clock
  }
  std::vector<PairedLatency> rows;
  for (const Query& query : kQueries) {
    rows.push_back(TimePaired(
        query.name, queries, [&](int) { return (q.*query.call)(); }, [&] { (void)s->Ping(); }));
  }
  bool ok = true;
  if (busy) {
    const BackgroundSummary b = busy->Stop();
    busy.reset();
    const Percentiles upload = b.upload_ms.empty() ? Percentiles() : Summarize(b.upload_ms);
    // A run's analysis after the first (which also computes the model-wide noise once).
    const Percentiles later =
        b.analysis_ms.size() < 2
            ? Percentiles()
            : Summarize(std::vector<double>(b.analysis_ms.begin() + 1, b.analysis_ms.end()));
    std::printf(
        "background over %.1f s: %lld runs (%lld measurements) uploaded in %.1f s = %.0f"
        " measurements/s, upload of a run p50 %.0f ms p99 %.0f ms (building them %.1f s);"
        " %lld runs analysed (%lld cases judged, %lld findings, %lld analysis errors; a run:"
        " first %.0f ms, then p50 %.0f ms p99 %.0f ms)%s%s\n",
        b.seconds, static_cast<long long>(b.runs_uploaded),
        static_cast<long long>(b.measurements_uploaded), b.ingest_seconds,
        b.measurements_uploaded / b.ingest_seconds, upload.p50_ms, upload.p99_ms, b.build_ms / 1000,
        static_cast<long long>(b.runs_analysed), static_cast<long long>(b.cases_judged),
        static_cast<long long>(b.findings), static_cast<long long>(b.analysis_errors),
        b.analysis_ms.empty() ? 0.0 : b.analysis_ms.front(), later.p50_ms, later.p99_ms,
        b.error.empty() ? "" : "; ERROR: ", b.error.c_str());
    // The background must have done its work, or the timed calls did not run under load.
    ok = b.error.empty() && b.analysis_errors == 0 &&
         (background.ingest_rate == 0 || b.runs_uploaded > 0) &&
         (!background.analysis || b.runs_analysed > 0);
    if (!ok) std::printf("background: FAILED (see above)\n");
  }
  PrintLatencyTable(rows, queries, kTargetP99Ms);
  if (loaded) {
    // Issue 25 item 5's targets under load: GetSeries 20 ms, a random run's page 50 ms.
    for (const PairedLatency& r : rows) {
      const bool series = r.name.rfind("GetSeries", 0) == 0;
      const bool run = r.name.find("one run") != std::string::npos;
      if (!series && !run) continue;
      const double target = series ? kTargetP99Ms : kTargetLoadedRunP99Ms;
      std::printf("under load: %-50s p99 %.2f ms, target <= %.0f ms: %s\n", r.name.c_str(),
                  r.measured.p99_ms, target, r.measured.p99_ms <= target ? "met" : "MISSED");
    }
  }
  PrintStatementStats(*url, 15, 5, 110);
  if (log_slow_ms > 0) {
    std::printf("\n==== statements of the timed calls that ran %d ms or longer (server side)\n%s",
                log_slow_ms, log.SinceMark().c_str());
  }
  for (const PairedLatency& r : rows) ok = ok && r.ok;

  // One more call of each, on a store whose connection logs every plan.
  options.url = WithAutoExplain(*url, 0, true);
  auto explained = server::OpenPgStore(options);
  if (!explained.ok()) return 1;
  Queries e{explained->get(), &shape, &rng, growing};
  (void)(*explained)->Ping();
  for (const Query& query : kQueries) {
    log.Mark();
    const bool right = (e.*query.call)();
    ok = ok && right;
    std::printf("\n==== plans of one call: %s%s\n%s", query.name, right ? "" : " (WRONG RESULT)",
                log.SinceMark().c_str());
  }
  std::fflush(stdout);
  if (hold_seconds > 0) {
    std::printf("\nholding the server for %d s: psql '%s'; --server-log %s\n", hold_seconds,
                url->c_str(), server_log.c_str());
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::seconds(hold_seconds));
  }
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace warpwatch::bench

int main(int argc, char** argv) { return warpwatch::bench::Main(argc, argv); }
