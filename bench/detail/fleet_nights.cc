// File: bench/detail/fleet_nights.cc
#include "bench/detail/fleet_nights.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>
#include <random>

namespace warpwatch::bench {
namespace {

// A PostgreSQL array literal of quoted elements.
std::string ArrayLiteral(const std::vector<std::string>& values) {
  std::string out = "{";
  for (const std::string& v : values) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (const char c : v) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

std::string ArrayLiteral(const std::vector<double>& values) {
  std::string out = "{";
  char buffer[40];
  for (const double v : values) {
    if (out.size() > 1) out += ',';
    std::snprintf(buffer, sizeof(buffer), "%.17g", v);
    out += buffer;
  }
  return out + "}";
}

std::string FleetNightsHex(const std::string& bytes) {
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

// The per-case and per-GPU draws, the same for every night (from `shape.seed` alone).
struct Draws {
  std::vector<std::string> canonical, family, variant, params;
  std::vector<double> median, sigma;
  std::vector<double> gpu_offset;       // index d
  std::vector<double> sample_template;  // case i's samples relative to its median: [i * S, +S)
};

Draws DrawFleet(const FleetShape& shape, const std::vector<SuiteCase>& cases) {
  Draws d;
  std::mt19937 rng(shape.seed);
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> normal(0, 1);
  for (const SuiteCase& c : cases) {
    d.canonical.push_back(c.canonical);
    d.family.push_back(c.family);
    d.variant.push_back(c.variant);
    d.params.push_back(nlohmann::json(c.params).dump());
    d.median.push_back(c.median_seconds);
    d.sigma.push_back(shape.min_case_sigma *
                      std::pow(shape.max_case_sigma / shape.min_case_sigma, unit(rng)));
    for (int s = 0; s < shape.samples; ++s) d.sample_template.push_back(1 + 0.01 * normal(rng));
  }
  for (int g = 0; g < shape.gpus; ++g) {
    d.gpu_offset.push_back(shape.max_gpu_offset * (2 * unit(rng) - 1));
  }
  return d;
}

// setseed's argument for night `night`: the same night draws the same medians.
double NightSeed(unsigned seed, int night) {
  const uint64_t h =
      (static_cast<uint64_t>(seed) * 7919 + static_cast<uint64_t>(night) * 104729) % 1000003;
  return 2.0 * static_cast<double>(h) / 1000003.0 - 1.0;
}

// Night `night` of `nights` in `tx`: its schedule run, jobs, runs and measurements.
void FleetNightsLoadNight(pqxx::work& tx, const FleetShape& shape, const Draws& d, int night,
                          int nights, bool pending) {
  tx.exec_params("SELECT setseed($1)", NightSeed(shape.seed, night));
  const int64_t schedule_run =
      tx.exec_params1(
            "INSERT INTO schedule_run (schedule_id, due_at, trigger, state)"
            " SELECT id, date_trunc('day', now()) - ($2::int - $1::int) * interval '1 day',"
            " 'CRON', 'FIRED' FROM schedule WHERE name = 'nightly' RETURNING id",
            night, nights)[0]
          .as<int64_t>();
  // Each GPU starts within six hours of the due time, in device order, and runs 20 minutes.
  tx.exec_params(
      "INSERT INTO job (spec, state, max_attempts, device_uuid, points_done, points_total,"
      " submitted_by, selector_gpu_uuid, schedule_run_id, created_at, started_at, finished_at)"
      " SELECT $1::jsonb, 'SUCCEEDED', 1, 'GPU-' || g, $2::int, $2::int, 'scheduler', 'GPU-' || g,"
      "  sr.id, sr.due_at, sr.due_at + g * interval '6 hours' / $3::int,"
      "  sr.due_at + g * interval '6 hours' / $3::int + interval '20 minutes'"
      " FROM schedule_run sr, generate_series(0, $3::int - 1) g WHERE sr.id = $4 ORDER BY g",
      shape.spec_json, static_cast<int>(d.canonical.size()), shape.gpus, schedule_run);
  tx.exec_params(
      "INSERT INTO run (job_id, worker_id, device_uuid, device_name, state, driver_version,"
      " cuda_driver_version, cuda_runtime_version, worker_version, suite_version, started_at,"
      " finished_at, analysis_state, analyzed_at)"
      " SELECT j.id, 'worker-' || substr(j.device_uuid, 5), j.device_uuid, $2, 'SUCCEEDED',"
      "  '580.159.04', 13000, 13000, '0.1.0', '1', j.started_at, j.finished_at, $3,"
      "  CASE WHEN $3 = 'DONE' THEN j.finished_at END"
      " FROM job j WHERE j.schedule_run_id = $1 ORDER BY j.id",
      schedule_run, shape.model, std::string(pending ? "PENDING" : "DONE"));
  // Rows reach the heap in upload batches of 64 points per run, interleaved across the night's
  // runs, as the workers' uploaders store them (bench/detail/history_load.cc).
  tx.exec_params(
      "WITH runs AS (SELECT r.id, r.device_uuid, substr(r.device_uuid, 5)::int AS g FROM run r"
      "   JOIN job j ON j.id = r.job_id WHERE j.schedule_run_id = $1),"
      " cases AS (SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[],"
      "   $6::float8[], $7::float8[]) WITH ORDINALITY"
      "   AS c(canonical, family, variant, params, base, sigma, i)),"
      " points AS (SELECT r.id AS run_id, r.device_uuid, c.*,"
      "   c.base * (1 + ($8::float8[])[r.g + 1])"
      "   * (1 + c.sigma * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()))"
      "   * CASE WHEN r.g < $12::int THEN 1 + $13::float8 ELSE 1 END AS median"
      "   FROM runs r CROSS JOIN cases c)"
      " INSERT INTO measurement (run_id, device_uuid, case_canonical, family, variant, params,"
      "  series_id, status, samples_seconds, throttled_fraction, median_seconds, p10_seconds,"
      "  p90_seconds, median_sm_clock_mhz, theoretical_occupancy, verified, l2_flushed, doc_pb)"
      " SELECT run_id, device_uuid, canonical, family, variant, params::jsonb,"
      "  canonical || '@' || $11, 'OK', ARRAY(SELECT median * t FROM"
      "  unnest(($9::float8[])[(i - 1) * $10::int + 1 : i * $10::int]) t), 0, median,"
      "  median * 0.99, median * 1.01, 1980, 1, true, true, decode($14, 'hex')"
      " FROM points ORDER BY (i - 1) / 64, run_id, i",
      schedule_run, ArrayLiteral(d.canonical), ArrayLiteral(d.family), ArrayLiteral(d.variant),
      ArrayLiteral(d.params), ArrayLiteral(d.median), ArrayLiteral(d.sigma),
      ArrayLiteral(d.gpu_offset), ArrayLiteral(d.sample_template), shape.samples, shape.model,
      pending ? shape.slowed_gpus : 0, shape.slowdown, FleetNightsHex(shape.doc_pb));
}

}  // namespace

Status LoadFleetHistory(const std::string& url, const FleetShape& shape,
                        const std::vector<SuiteCase>& cases, int nights,
                        void (*progress)(int night, int nights)) {
  try {
    const Draws d = DrawFleet(shape, cases);
    pqxx::connection conn(url);
    {
      pqxx::work tx(conn);
      tx.exec_params(
          "INSERT INTO schedule (name, cron, job_template, points_total, created_by)"
          " VALUES ('nightly', '0 0 * * *', $1::jsonb, $2, 'bench')",
          shape.spec_json, static_cast<int64_t>(cases.size()));
      tx.commit();
    }
    for (int night = 0; night < nights; ++night) {
      pqxx::work tx(conn);
      FleetNightsLoadNight(tx, shape, d, night, nights, /*pending=*/false);
      tx.commit();
      if (progress) progress(night + 1, nights);
    }
    // What each GPU's last analysis left: its sensitivity per case (RecordSensitivity's rows).
    pqxx::work tx(conn);
    tx.exec_params(
        "INSERT INTO series_noise (series_id, device_uuid, sigma_relative, min_detectable_change,"
        " baseline_runs, run_id, computed_at)"
        " SELECT m.series_id, m.device_uuid, c.sigma, 3.5 * c.sigma, 10, m.run_id, now()"
        " FROM measurement m JOIN unnest($1::text[], $2::float8[]) AS c(canonical, sigma)"
        "  ON c.canonical = m.case_canonical"
        " WHERE m.run_id IN (SELECT r.id FROM run r JOIN job j ON j.id = r.job_id"
        "   WHERE j.schedule_run_id = (SELECT max(id) FROM schedule_run))",
        ArrayLiteral(d.canonical), ArrayLiteral(d.sigma));
    tx.commit();
    pqxx::nontransaction vacuum(conn);
    vacuum.exec("VACUUM ANALYZE");
    return OkStatus();
  } catch (const std::exception& e) {
    return InternalError(std::string("loading the fleet's history: ") + e.what());
  }
}

Status InsertPendingNight(const std::string& url, const FleetShape& shape,
                          const std::vector<SuiteCase>& cases, int night, int nights) {
  try {
    const Draws d = DrawFleet(shape, cases);
    pqxx::connection conn(url);
    pqxx::work tx(conn);
    FleetNightsLoadNight(tx, shape, d, night, nights, /*pending=*/true);
    tx.commit();
    pqxx::nontransaction analyze(conn);
    analyze.exec("ANALYZE run");
    return OkStatus();
  } catch (const std::exception& e) {
    return InternalError(std::string("inserting the new night: ") + e.what());
  }
}

}  // namespace warpwatch::bench
