// File: bench/detail/history_load.cc
#include "bench/detail/history_load.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>
#include <thread>
#include <random>
#include <utility>
#include <vector>

#include "server/store/detail/conversions.h"
#include "warpwatch/v1/measurement.pb.h"

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

namespace {

std::string Hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

// The serialized documents of night `n`, one per case and model (index case * models + model),
// as a PostgreSQL text[] literal of hex strings. Each night's medians come from its own seed, so
// the load is the same whichever connection loads the night.
std::string DocsOfNight(const HistoryShape& shape, const v1::Measurement& doc_template, int n) {
  std::mt19937 rng(7 + static_cast<unsigned>(n));
  std::uniform_real_distribution<double> jitter(0, 0.02);
  std::string docs = "{";
  for (int i = 0; i < shape.cases; ++i) {
    for (int model = 0; model < shape.models; ++model) {
      v1::Measurement m = doc_template;
      const std::string canonical = HistoryShape::CaseKey(i);
      m.mutable_case_()->set_canonical(canonical);
      m.mutable_case_()->set_family("fam" + std::to_string(i % 28));
      m.mutable_case_()->set_variant("v" + std::to_string(i / 28));
      m.mutable_case_()->mutable_params()->clear();
      (*m.mutable_case_()->mutable_params())["n"] = i;
      m.set_series_id(canonical + "@" + HistoryShape::Model(model));
      const double median = 1e-3 * (1 + i * 0.01) * (1 + jitter(rng));
      m.mutable_stats()->set_median(median);
      m.mutable_stats()->set_p10(median * 0.99);
      m.mutable_stats()->set_p90(median * 1.01);
      if (docs.size() > 1) docs += ',';
      docs += Hex(m.SerializeAsString());
    }
  }
  docs += '}';
  return docs;
}

void InsertRuns(pqxx::connection& conn, const HistoryShape& shape) {
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

// The protobuf varint of a run id, to append `run_id` (field 23) to a serialized document:
// concatenated serialized messages parse as one, the later value of a field winning. A
// temporary function: one per connection.
void CreateVarintFunction(pqxx::connection& conn) {
  pqxx::nontransaction tx(conn);
  tx.exec(
      "CREATE FUNCTION pg_temp.ww_varint(v bigint) RETURNS bytea LANGUAGE plpgsql"
      " IMMUTABLE AS $f$ DECLARE out bytea := ''; BEGIN LOOP"
      "  IF v < 128 THEN RETURN out || set_byte('\\x00'::bytea, 0, v::int); END IF;"
      "  out := out || set_byte('\\x00'::bytea, 0, ((v & 127) | 128)::int);"
      "  v := v >> 7; END LOOP; END $f$");
}

// Night `n`'s measurements, in one transaction. The measurement columns are those the store
// fills (server/store/detail/measurement_row.cc), device_uuid included (migration 0010);
// `doc_pb` is the proto minus its sample arrays, in binary (DocsOfNight's, run id appended).
void LoadNight(pqxx::connection& conn, const HistoryShape& shape,
               const v1::Measurement& doc_template, int n) {
  const std::string docs = DocsOfNight(shape, doc_template, n);
  pqxx::work tx(conn);
  tx.exec("SET LOCAL synchronous_commit = on");  // see the VACUUM in LoadHistory
  tx.exec_params(
      "WITH cases AS ("
      "  SELECT i, 'fam' || (i % 28) AS family, 'v' || (i / 28) AS variant,"
      "         'fam' || (i % 28) || '/v' || (i / 28) || '?n=' || i AS canonical"
      "  FROM generate_series(0, $2::int - 1) i),"
      " runs AS (SELECT id, device_uuid, device_name,"
      "          substr(device_name, 7)::int AS model FROM run"
      "          ORDER BY id OFFSET $1::int * $3::int LIMIT $3::int),"
      " rows AS (SELECT r.id AS run_id, r.device_uuid, r.model, c.*,"
      "          c.canonical || '@' || r.device_name AS series_id,"
      "          1e-3 * (1 + c.i * 0.01) * (1 + 0.02 * random()) AS median"
      "          FROM runs r CROSS JOIN cases c)"
      " INSERT INTO measurement (run_id, device_uuid, case_canonical, family, variant, params,"
      "  series_id, status, median_seconds, p10_seconds, p90_seconds, median_sm_clock_mhz,"
      "  theoretical_occupancy, verified, doc_pb)"
      " SELECT run_id, device_uuid, canonical, family, variant, jsonb_build_object('n', i),"
      "  series_id, 'OK', median, median * 0.99, median * 1.01, 1980, 0.5, true,"
      "  decode(($5::text[])[1 + i * $6::int + model], 'hex') || '\\xb801'::bytea"
      "   || pg_temp.ww_varint(run_id)"
      " FROM rows ORDER BY i / $4::int, run_id, i",
      n, shape.cases, shape.devices, shape.upload_batch, docs, shape.models);
  tx.commit();
}

}  // namespace

Status LoadHistory(const std::string& url, const HistoryShape& shape, int connections,
                   const std::function<void(int)>& progress) {
  try {
    v1::Measurement doc_template;
    RETURN_IF_ERROR(server::detail::MessageFromJson(shape.doc_template, &doc_template));
    doc_template.clear_run_id();
    pqxx::connection conn(url);
    InsertRuns(conn, shape);
    {
      // The run-range partitions of measurement a server's queue keeper keeps ahead of the run
      // ids (Store::KeepPartitionsAhead; migrations 0019 and 0020): made once the year's runs
      // exist, so each night's rows land in the partition of its runs, as on a server, rather
      // than all in measurement_default. A server sizes each at the runs started in the last 30
      // days (at least JobReaperOptions::partition_min_runs = 1000); the loaded nights are in the
      // past, so that count is passed as the minimum: 30 nights of the shape's devices.
      pqxx::nontransaction tx(conn);
      const int64_t runs = shape.partition_runs > 0
                               ? shape.partition_runs
                               : std::max<int64_t>(1000, int64_t{30} * shape.devices);
      tx.exec_params("SELECT warpwatch_keep_measurement_partitions($1)", runs);
    }
    // Nights are spread over `connections` loaders, each taking the next night not yet taken;
    // each night is one transaction, so progress shows and none holds more than a night.
    std::atomic<int> next_night{0};
    std::atomic<int> done{0};
    std::mutex mu;  // guards error and the progress callback
    std::string error;
    auto loader = [&] {
      try {
        pqxx::connection c(url);
        CreateVarintFunction(c);
        for (int n = next_night++; n < shape.nights; n = next_night++) {
          LoadNight(c, shape, doc_template, n);
          std::lock_guard<std::mutex> lock(mu);
          progress(++done);
        }
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mu);
        error = e.what();
        next_night = shape.nights;  // the others stop after their night
      }
    };
    std::vector<std::thread> loaders;
    for (int i = 0; i < std::max(1, connections); ++i) loaders.emplace_back(loader);
    for (std::thread& t : loaders) t.join();
    if (!error.empty()) return InternalError("loading the history: " + error);
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
      // Over the partitions (the partitioned parent has no pages of its own).
      const pqxx::row r = vacuum.exec1(
          "SELECT coalesce(sum(c.relallvisible) >= 0.99 * sum(c.relpages), true) FROM pg_class c"
          " JOIN pg_inherits i ON i.inhrelid = c.oid WHERE i.inhparent = 'measurement'::regclass");
      if (r[0].as<bool>()) break;
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return OkStatus();
  } catch (const std::exception& e) {
    return InternalError(std::string("loading the history: ") + e.what());
  }
}

}  // namespace warpwatch::bench
