// File: bench/detail/history_load.cc
#include "bench/detail/history_load.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>
#include <thread>
#include <utility>
#include <vector>

namespace warpwatch::bench {

std::string HistoryShape::CaseKey(int i) {
  return "fam" + std::to_string(i % 28) + "/v" + std::to_string(i / 28) + "?n=" +
         std::to_string(i);
}
std::string HistoryShape::Device(int d) { return "GPU-" + std::to_string(d); }
std::string HistoryShape::Model(int m) { return "Model-" + std::to_string(m); }

StatusOr<std::string> DocTemplateFromRunFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return NotFoundError("doc template: cannot read " + path);
  nlohmann::json run = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (run.is_discarded() || !run.contains("measurements") || !run["measurements"].is_array() ||
      run["measurements"].empty()) {
    return InvalidArgumentError("doc template: " + path +
                                " is not a run file with measurements");
  }
  std::vector<std::pair<size_t, std::string>> docs;
  for (nlohmann::json m : run["measurements"]) {
    for (const char* key : {"samples_seconds", "sample_sm_clock_mhz", "sample_throttled",
                            "sample_kernel_seconds", "sample_group"}) {
      m.erase(key);
    }
    std::string text = m.dump();
    docs.emplace_back(text.size(), std::move(text));
  }
  std::sort(docs.begin(), docs.end());
  return docs[docs.size() / 2].second;
}

Status LoadHistory(const std::string& url, const HistoryShape& shape,
                   const std::function<void(int)>& progress) {
  try {
    pqxx::connection conn(url);
    {
      pqxx::work tx(conn);
      tx.exec_params(
          "INSERT INTO run (worker_id, device_uuid, device_name, state, started_at, finished_at,"
          " analysis_state)"
          " SELECT 'w' || (d % 12), 'GPU-' || d, 'Model-' || (d % $2::int), 'SUCCEEDED',"
          "  timestamptz '2025-01-01' + n * interval '1 day' + d * interval '10 seconds',"
          "  timestamptz '2025-01-01' + n * interval '1 day' + d * interval '10 seconds'"
          "   + interval '2 minutes', 'DONE'"
          " FROM generate_series(0, $1::int - 1) n, generate_series(0, $3::int - 1) d"
          " ORDER BY n, d",
          shape.nights, shape.models, shape.devices);
      tx.commit();
    }
    // Night by night, so progress shows and no transaction holds more than one night. The
    // measurement columns are those the store fills (server/store/detail/measurement_row.cc),
    // device_uuid included (migration 0010); `doc` is the proto minus its sample arrays.
    for (int n = 0; n < shape.nights; ++n) {
      pqxx::work tx(conn);
      tx.exec("SET LOCAL synchronous_commit = on");  // see the VACUUM below
      tx.exec_params(
          "WITH cases AS ("
          "  SELECT i, 'fam' || (i % 28) AS family, 'v' || (i / 28) AS variant,"
          "         'fam' || (i % 28) || '/v' || (i / 28) || '?n=' || i AS canonical"
          "  FROM generate_series(0, $2::int - 1) i),"
          " runs AS (SELECT id, device_uuid, device_name FROM run"
          "          ORDER BY id OFFSET $1::int * $3::int LIMIT $3::int),"
          " rows AS (SELECT r.id AS run_id, r.device_uuid, c.*,"
          "          c.canonical || '@' || r.device_name AS series_id,"
          "          1e-3 * (1 + c.i * 0.01) * (1 + 0.02 * random()) AS median"
          "          FROM runs r CROSS JOIN cases c)"
          " INSERT INTO measurement (run_id, device_uuid, case_canonical, family, variant, params,"
          "  series_id, status, median_seconds, p10_seconds, p90_seconds, median_sm_clock_mhz,"
          "  theoretical_occupancy, verified, doc)"
          " SELECT run_id, device_uuid, canonical, family, variant, jsonb_build_object('n', i),"
          "  series_id, 'OK', median, median * 0.99, median * 1.01, 1980, 0.5, true,"
          "  $5::jsonb || jsonb_build_object('case', jsonb_build_object('family', family,"
          "    'variant', variant, 'params', jsonb_build_object('n', i::text),"
          "    'canonical', canonical),"
          "    'status', 'POINT_STATUS_OK', 'stats', coalesce($5::jsonb -> 'stats', '{}')"
          "    || jsonb_build_object('median', median, 'p10', median * 0.99,"
          "    'p90', median * 1.01), 'median_sm_clock_mhz', 1980,"
          "    'verified', true, 'series_id', series_id, 'run_id', run_id::text)"
          " FROM rows ORDER BY i / $4::int, run_id, i",
          n, shape.cases, shape.devices, shape.upload_batch, shape.doc_template);
      tx.commit();
      progress(n + 1);
    }
    // Index-only scans skip the heap only on pages VACUUM marked all-visible. Observed here: the
    // first VACUUM after the load often marks none of the measurement pages (rows nothing has
    // read yet; not understood further), a later one most; with asynchronous commits (the
    // harness's default) it took longer still. So the load commits synchronously, as a
    // production server does, and VACUUMs until 99 % of the pages are all-visible (at most 10
    // passes, a second apart), as autovacuum's repeated passes would: the state a production
    // table reaches between two nightly loads.
    pqxx::nontransaction vacuum(conn);
    vacuum.exec("VACUUM ANALYZE run");
    for (int pass = 1; pass <= 10; ++pass) {
      vacuum.exec("VACUUM ANALYZE measurement");
      const pqxx::row r = vacuum.exec1(
          "SELECT relallvisible >= 0.99 * relpages FROM pg_class WHERE relname = 'measurement'");
      if (r[0].as<bool>()) break;
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return OkStatus();
  } catch (const std::exception& e) {
    return InternalError(std::string("loading the history: ") + e.what());
  }
}

}  // namespace warpwatch::bench
