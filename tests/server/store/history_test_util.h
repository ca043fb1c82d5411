// File: tests/server/store/history_test_util.h
// Fixture for the history, regression and upload store tests: runs made the way workers make them
// (register, claim, upload, finish), measurements with chosen medians, and regression and change
// point rows written as the detector writes them (plain SQL: the detector's own store code is
// another subsystem).
#ifndef WARPWATCH_TESTS_SERVER_STORE_HISTORY_TEST_UTIL_H_
#define WARPWATCH_TESTS_SERVER_STORE_HISTORY_TEST_UTIL_H_

#include <cstdint>
#include <map>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {

inline constexpr const char* kH100 = "NVIDIA H100 80GB HBM3";
inline constexpr const char* kA100 = "NVIDIA A100-SXM4-80GB";

// A measured case "family/variant?n=<n>" with median `median` seconds, clock `clock_mhz`, and
// three samples around the median.
inline v1::Measurement MakePoint(const std::string& family, const std::string& variant, int64_t n,
                                 double median, double clock_mhz = 1980) {
  v1::Measurement m;
  m.mutable_case_()->set_family(family);
  m.mutable_case_()->set_variant(variant);
  (*m.mutable_case_()->mutable_params())["n"] = n;
  m.mutable_case_()->set_canonical(family + "/" + variant + "?n=" + std::to_string(n));
  m.set_status(v1::POINT_STATUS_OK);
  m.set_verified(true);
  m.mutable_stats()->set_median(median);
  m.mutable_stats()->set_p10(median * 0.99);
  m.mutable_stats()->set_p90(median * 1.01);
  m.set_median_sm_clock_mhz(clock_mhz);
  for (double f : {0.999, 1.0, 1.001}) {
    m.add_samples_seconds(median * f);
    m.add_sample_sm_clock_mhz(clock_mhz);
    m.add_sample_throttled(false);
  }
  m.mutable_occupancy()->set_theoretical(0.75);
  m.mutable_occupancy()->set_achieved(0.61);
  return m;
}

class HistoryStoreTest : public StoreTest {
 protected:
  // A SUCCEEDED run of a fresh job on device `uuid` (model `model`) holding `points`, with the
  // job labels `labels`. Returns the run id (0 after a failed assertion).
  int64_t MakeRun(const std::string& uuid, const std::string& model,
                  const std::vector<v1::Measurement>& points,
                  const std::map<std::string, std::string>& labels = {}) {
    std::string& worker = workers_[uuid];
    if (worker.empty()) worker = Register({MakeDevice(uuid, model)});
    v1::Job job = Enqueue([&](v1::JobSpec& spec) {
      spec.mutable_selector()->set_gpu_uuid(uuid);
      spec.mutable_labels()->insert(labels.begin(), labels.end());
    });
    StatusOr<std::optional<Lease>> lease =
        store_->ClaimJob(worker, uuid, std::chrono::minutes(5));
    EXPECT_TRUE(lease.ok() && lease->has_value()) << lease.status().ToString();
    if (!lease.ok() || !lease->has_value()) return 0;
    const int64_t run_id = (*lease)->run_id;
    v1::RunEnvironment env;
    *env.mutable_device() = MakeDevice(uuid, model);
    env.set_hostname("node-" + uuid);
    env.mutable_labels()->insert(labels.begin(), labels.end());
    StatusOr<UploadCounts> counts = store_->UploadMeasurements(run_id, worker, env, points);
    EXPECT_TRUE(counts.ok()) << counts.status().ToString();
    StatusOr<v1::Job> done =
        store_->FinishJob(worker, job.id(), run_id, v1::JOB_OUTCOME_SUCCEEDED, "");
    EXPECT_TRUE(done.ok()) << done.status().ToString();
    return run_id;
  }

  // A regression row as the detector writes it; returns its id.
  int64_t InsertRegression(int64_t run_id, const std::string& canonical, const std::string& family,
                           const std::string& model, const std::string& state,
                           const std::string& kind = "REGRESSION",
                           const std::string& device_uuid = "") {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    const int64_t id =
        tx.exec_params1(
              "INSERT INTO regression (series_id, case_canonical, family, gpu_model, run_id,"
              " baseline_run_ids, baseline_median_seconds, new_median_seconds, change, p_value,"
              " method, state, kind, device_uuid, z, blame)"
              " VALUES ($1, $2, $3, $4, $5, '{1,2}', 1e-3, 1.1e-3, 0.1, 0.004, 'robust_z', $6,"
              " $7, $8, 6.5, 'CODE') RETURNING id",
              canonical + "@" + model, canonical, family, model, run_id, state, kind, device_uuid)[0]
            .as<int64_t>();
    tx.commit();
    return id;
  }

  // A change point of series `series_id` (device '' = model-wide) at run `run_id`.
  void InsertChangePoint(const std::string& series_id, const std::string& device_uuid,
                         int64_t run_id, double before, double after) {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    tx.exec_params(
        "INSERT INTO change_point (series_id, device_uuid, run_id, at, median_before,"
        " median_after, relative_change, p_value, q_hat)"
        " SELECT $1, $2, $3, started_at, $4::float8, $5::float8, $5::float8 / $4::float8 - 1, 0.001,"
        " 12.5 FROM run WHERE id = $3",
        series_id, device_uuid, run_id, before, after);
    tx.commit();
  }

  // Runs one SQL statement with text parameters and returns the first column of its first row.
  std::string Sql(const std::string& sql, const std::string& param) {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    pqxx::result r = tx.exec_params(sql, param);
    tx.commit();
    return r.empty() || r[0][0].is_null() ? "" : r[0][0].as<std::string>();
  }

  std::map<std::string, std::string> workers_;  // device uuid -> its worker
};

}  // namespace warpwatch::server::testing

#endif  // WARPWATCH_TESTS_SERVER_STORE_HISTORY_TEST_UTIL_H_
