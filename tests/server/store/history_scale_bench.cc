// File: tests/server/store/history_scale_bench.cc
// Issue 9's scale check: GetSeries and QueryMeasurements latency (p50/p99) through the real
// PgStore on a throwaway PostgreSQL holding one year of nightly runs (365 nights x 96 GPUs of 3
// models x 286 cases = 10,021,440 measurements), which it loads itself with server-side SQL.
// Prints the timings and the plans (EXPLAIN ANALYZE) of the store's statements.
//   build-server/bin/server_history_scale_bench [--nights N] [--queries Q]
// Not a ctest: the load alone takes minutes.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <pqxx/pqxx>
#include <random>
#include <string>
#include <vector>

#include "server/store/migrations.h"
#include "server/store/pg_store.h"
#include "tests/support/postgres_server.h"

namespace warpwatch {
namespace {

constexpr int kDevices = 96;
constexpr int kModels = 3;  // 32 GPUs of each model
constexpr int kCases = 286;

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// Runs: one per (night, device), oldest first. Measurements: every case in every run.
void Load(const std::string& url, int nights) {
  pqxx::connection conn(url);
  pqxx::work tx(conn);
  tx.exec("SET synchronous_commit = off");
  tx.exec_params(
      "INSERT INTO run (worker_id, device_uuid, device_name, state, started_at, finished_at,"
      " analysis_state)"
      " SELECT 'w' || (d % 12), 'GPU-' || d, 'Model-' || (d % $2::int), 'SUCCEEDED',"
      "  timestamptz '2025-01-01' + n * interval '1 day' + d * interval '10 seconds',"
      "  timestamptz '2025-01-01' + n * interval '1 day' + d * interval '10 seconds'"
      "   + interval '2 minutes', 'DONE'"
      " FROM generate_series(0, $1::int - 1) n, generate_series(0, $3::int - 1) d ORDER BY n, d",
      nights, kModels, kDevices);
  tx.commit();
  const auto start = Clock::now();
  // Night by night, so progress shows and no single transaction holds ten million rows.
  for (int n = 0; n < nights; ++n) {
    pqxx::work batch(conn);
    batch.exec("SET synchronous_commit = off");
    batch.exec_params(
        "WITH cases AS ("
        "  SELECT i, 'fam' || (i % 28) AS family, 'v' || (i / 28) AS variant,"
        "         'fam' || (i % 28) || '/v' || (i / 28) || '?n=' || i AS canonical"
        "  FROM generate_series(0, $2::int - 1) i),"
        " runs AS (SELECT id, device_name FROM run ORDER BY id OFFSET $1::int * $3::int LIMIT $3::int),"
        " rows AS (SELECT r.id AS run_id, c.*, c.canonical || '@' || r.device_name AS series_id,"
        "          1e-3 * (1 + c.i * 0.01) * (1 + 0.02 * random()) AS median"
        "          FROM runs r CROSS JOIN cases c)"
        " INSERT INTO measurement (run_id, case_canonical, family, variant, params, series_id,"
        "  status, median_seconds, p10_seconds, p90_seconds, median_sm_clock_mhz,"
        "  theoretical_occupancy, verified, doc)"
        " SELECT run_id, canonical, family, variant, jsonb_build_object('n', i), series_id, 'OK',"
        "  median, median * 0.99, median * 1.01, 1980, 0.5, true,"
        "  jsonb_build_object('case', jsonb_build_object('family', family, 'variant', variant,"
        "    'params', jsonb_build_object('n', i::text), 'canonical', canonical),"
        "    'status', 'POINT_STATUS_OK', 'stats', jsonb_build_object('median', median,"
        "    'p10', median * 0.99, 'p90', median * 1.01), 'median_sm_clock_mhz', 1980,"
        "    'verified', true, 'series_id', series_id, 'run_id', run_id::text)"
        " FROM rows ORDER BY run_id, i",  // a run's rows together, as one upload stores them
        n, kCases, kDevices);
    batch.commit();
    if ((n + 1) % 30 == 0 || n + 1 == nights) {
      std::printf("loaded %d/%d nights (%.0f s)\n", n + 1, nights, Seconds(start));
      std::fflush(stdout);
    }
  }
  pqxx::nontransaction vacuum(conn);
  vacuum.exec("VACUUM ANALYZE run");
  vacuum.exec("VACUUM ANALYZE measurement");
}

struct Percentiles {
  double p50_ms, p99_ms, max_ms;
};

Percentiles Summarize(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) { return ms[static_cast<size_t>(q * (ms.size() - 1))]; };
  return {at(0.5), at(0.99), ms.back()};
}

template <typename Fn>
Percentiles Time(int queries, Fn&& fn) {
  std::vector<double> ms;
  for (int q = 0; q < queries; ++q) {
    const auto start = Clock::now();
    fn(q);
    ms.push_back(Seconds(start) * 1e3);
  }
  return Summarize(ms);
}

void Explain(const std::string& url, const std::string& title, const std::string& sql) {
  pqxx::connection conn(url);
  pqxx::work tx(conn);
  std::printf("\n-- %s\n", title.c_str());
  for (const pqxx::row& row : tx.exec("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + sql)) {
    std::printf("%s\n", row[0].c_str());
  }
}

int Main(int argc, char** argv) {
  int nights = 365;
  int queries = 200;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--nights") nights = std::atoi(argv[i + 1]);
    if (flag == "--queries") queries = std::atoi(argv[i + 1]);
  }
  auto pg = testing::PostgresServer::Create();
  if (!pg.ok()) {
    std::fprintf(stderr, "postgres: %s\n", pg.status().ToString().c_str());
    return 1;
  }
  auto url = (*pg)->CreateDatabase("scale");
  if (!url.ok() || !server::RunMigrations(*url).ok()) {
    std::fprintf(stderr, "database setup failed\n");
    return 1;
  }
  const auto load_start = Clock::now();
  Load(*url, nights);
  {
    pqxx::connection conn(*url);
    pqxx::work tx(conn);
    std::printf("measurements: %s, runs: %s, load %.0f s, database %s\n",
                tx.exec1("SELECT count(*) FROM measurement")[0].c_str(),
                tx.exec1("SELECT count(*) FROM run")[0].c_str(), Seconds(load_start),
                tx.exec1("SELECT pg_size_pretty(pg_database_size(current_database()))")[0].c_str());
  }
  server::PgStoreOptions options;
  options.url = *url;
  options.pool_size = 1;
  auto store = server::OpenPgStore(options);
  if (!store.ok()) return 1;
  std::mt19937 rng(42);
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  auto case_key = [](int i) {
    return "fam" + std::to_string(i % 28) + "/v" + std::to_string(i / 28) + "?n=" +
           std::to_string(i);
  };
  bool failed = false;
  // Warm the pool's one connection and the caches the way a running server has them.
  (void)(*store)->GetRun(1);

  const Percentiles device_series = Time(queries, [&](int) {
    server::SeriesQuery q;
    q.case_canonical = case_key(pick(kCases));
    q.device_uuid = "GPU-" + std::to_string(pick(kDevices));
    q.limit = 400;
    auto s = (*store)->GetSeries(q);
    if (!s.ok() || s->points_size() != nights) failed = true;
  });
  const Percentiles model_series = Time(queries, [&](int) {
    server::SeriesQuery q;
    q.case_canonical = case_key(pick(kCases));
    q.gpu_model = "Model-" + std::to_string(pick(kModels));
    q.limit = 400;
    auto s = (*store)->GetSeries(q);
    if (!s.ok() || s->points_size() != 400) failed = true;
  });
  const int64_t runs = static_cast<int64_t>(nights) * kDevices;
  const Percentiles run_page = Time(queries, [&](int) {
    server::MeasurementQuery q;
    q.run_id = 1 + pick(static_cast<int>(runs));
    q.page_size = 100;
    auto page = (*store)->QueryMeasurements(q);
    if (!page.ok() || page->measurements.size() != 100) failed = true;
  });
  const Percentiles run_glob = Time(queries, [&](int) {
    server::MeasurementQuery q;
    q.run_id = 1 + pick(static_cast<int>(runs));
    q.family_glob = "fam1*";
    q.params = {{"n", 1}};
    auto page = (*store)->QueryMeasurements(q);
    if (!page.ok() || page->measurements.size() != 1) failed = true;
  });
  const Percentiles series_page = Time(queries, [&](int) {
    server::MeasurementQuery q;
    q.series_id = case_key(pick(kCases)) + "@Model-" + std::to_string(pick(kModels));
    q.page_size = 100;
    auto page = (*store)->QueryMeasurements(q);
    if (!page.ok() || page->measurements.size() != 100) failed = true;
  });
  const std::string header = "query (" + std::to_string(queries) + " each, ms)";
  std::printf("\n%-58s %8s %8s %8s\n", header.c_str(), "p50", "p99", "max");
  const std::pair<const char*, Percentiles> rows[] = {
      {"GetSeries one device, one year (365 points)", device_series},
      {"GetSeries one GPU model, latest 400 points", model_series},
      {"QueryMeasurements one run, page of 100", run_page},
      {"QueryMeasurements one run, family glob + params", run_glob},
      {"QueryMeasurements one series, page of 100", series_page},
  };
  for (const auto& [name, p] : rows) {
    std::printf("%-58s %8.2f %8.2f %8.2f\n", name, p.p50_ms, p.p99_ms, p.max_ms);
  }
  if (failed) std::printf("\nSOME QUERIES RETURNED UNEXPECTED RESULTS\n");

  const std::string series = "'fam5/v3?n=89@Model-1'";
  Explain(*url, "GetSeries points, one device (pg_store_series.cc)",
          "SELECT r.id, m.median_seconds FROM run r JOIN measurement m"
          " ON m.run_id = r.id AND m.case_canonical = 'fam5/v3?n=89'"
          " WHERE r.device_uuid = 'GPU-7' AND m.series_id = " + series +
              " ORDER BY r.id DESC LIMIT 400");
  Explain(*url, "GetSeries points, one GPU model (pg_store_series.cc)",
          "SELECT r.id, m.median_seconds FROM measurement m JOIN run r ON r.id = m.run_id"
          " WHERE m.series_id = " + series + " ORDER BY m.run_id DESC LIMIT 400");
  Explain(*url, "QueryMeasurements, one run (pg_store_history.cc)",
          "SELECT m.doc::text, m.id FROM measurement m WHERE m.run_id = 12345"
          " AND m.family LIKE ww_glob_to_like('fam1*') AND m.params @> '{\"n\": 1}'"
          " AND m.id > 0 ORDER BY m.id LIMIT 101");
  Explain(*url, "QueryMeasurements, one series (pg_store_history.cc)",
          "SELECT m.doc::text, m.id FROM measurement m WHERE m.series_id = " + series +
              " AND m.id > 0 ORDER BY m.id LIMIT 101");
  return failed ? 1 : 0;
}

}  // namespace
}  // namespace warpwatch

int main(int argc, char** argv) { return warpwatch::Main(argc, argv); }
