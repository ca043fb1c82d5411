// File: tests/server/gpu_health/health_seed.h
// Writes analysed nights straight into a test database for the tests that run the CLI and the
// deploy/ scripts against a server: GPUs on hosts, a schedule run a night, SUCCEEDED and analysed
// runs with what the fleet view compared of them, and the fleet OUTLIER rows the analysis would
// have written for a GPU slower than its peers. (The analysis itself is exercised by fleet_health_test.cc.)
#ifndef WARPWATCH_TESTS_SERVER_GPU_HEALTH_HEALTH_SEED_H_
#define WARPWATCH_TESTS_SERVER_GPU_HEALTH_HEALTH_SEED_H_

#include <cstdint>
#include <map>
#include <pqxx/pqxx>
#include <string>

namespace warpwatch::testing {

inline constexpr const char* kSeedModel = "NVIDIA H100 80GB HBM3";

// GPU `i` of the seeded fleet, on host "node-<i / 4>" (4 GPUs a host).
inline std::string SeedGpu(int i) { return "GPU-seed-" + std::to_string(i); }
inline std::string SeedHost(int i) { return "node-" + std::to_string(i / 4); }

// One night of `gpus` GPUs; `slow` maps a GPU to how much slower its HBM-bound cases ran than its
// peers (3 memory.coalescing outliers at that change).
inline void SeedNight(const std::string& url, int gpus, const std::map<int, double>& slow) {
  pqxx::connection conn(url);
  pqxx::work tx(conn);
  const int64_t schedule =
      tx.exec(
            "INSERT INTO schedule (name, cron, job_template) VALUES ('seed-' ||"
            " (SELECT count(*) FROM schedule), '0 2 * * *', '{}'::jsonb) RETURNING id")
          .at(0)
          .at(0)
          .as<int64_t>();
  const int64_t night = tx.exec_params(
                              "INSERT INTO schedule_run (schedule_id, due_at, trigger,"
                              " state) VALUES ($1, now(), 'MANUAL', 'FIRED') RETURNING id",
                              schedule)
                            .at(0)
                            .at(0)
                            .as<int64_t>();
  for (int i = 0; i < gpus; ++i) {
    const int64_t job = tx.exec_params(
                              "INSERT INTO job (spec, state, max_attempts,"
                              " schedule_run_id) VALUES ('{}', 'SUCCEEDED', 1, $1)"
                              " RETURNING id",
                              night)
                            .at(0)
                            .at(0)
                            .as<int64_t>();
    const int64_t run = tx.exec_params(
                              "INSERT INTO run (job_id, device_uuid, device_name, hostname, state,"
                              " analysis_state, finished_at) VALUES ($1, $2, $3, $4, 'SUCCEEDED',"
                              " 'DONE', now()) RETURNING id",
                              job, SeedGpu(i), std::string(kSeedModel), SeedHost(i))
                            .at(0)
                            .at(0)
                            .as<int64_t>();
    // What the analysis' fleet view writes once it compared the run with its peers.
    tx.exec_params(
        "INSERT INTO fleet_judged_run (run_id, cases, families)"
        " VALUES ($1, 2, '{memory.coalescing,instr.arithmetic}')",
        run);
    for (const char* family : {"memory.coalescing", "instr.arithmetic"}) {
      tx.exec_params(
          "INSERT INTO measurement (run_id, case_canonical, family, variant,"
          " series_id, status, median_seconds, median_sm_clock_mhz, doc)"
          " VALUES ($1, $2 || '/v', $2, 'v', $2 || '/v@' || $3, 'OK', 1e-4, 1980, '{}')",
          run, std::string(family), std::string(kSeedModel));
    }
    auto it = slow.find(i);
    if (it == slow.end()) continue;
    for (int c = 0; c < 3; ++c) {
      const std::string key = "memory.coalescing/case" + std::to_string(c);
      tx.exec_params(
          "INSERT INTO regression (series_id, case_canonical, family, gpu_model, run_id,"
          " baseline_median_seconds, new_median_seconds, change, method, kind, state,"
          " device_uuid, z) VALUES ($1 || '@' || $2, $1, 'memory.coalescing', $2, $3, 1e-4,"
          "  1e-4 * (1 + $4::float8), $4::float8, 'fleet: seeded', 'OUTLIER', 'OPEN', $5, 12)",
          key, std::string(kSeedModel), run, it->second, SeedGpu(i));
    }
  }
  tx.commit();
}

}  // namespace warpwatch::testing

#endif  // WARPWATCH_TESTS_SERVER_GPU_HEALTH_HEALTH_SEED_H_
