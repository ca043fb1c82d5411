// File: tests/server/analysis/analysis_test_util.cc
#include "tests/server/analysis/analysis_test_util.h"

#include "server/analysis/run_analyzer.h"
#include "server/store/pg_analysis_store.h"

namespace warpwatch::server::testing {

std::string Canonical(const Point& p) {
  std::string key = p.family + "/" + p.variant;
  char sep = '?';
  for (const auto& [k, v] : p.params) {  // std::map: sorted
    key += sep + k + "=" + std::to_string(v);
    sep = '&';
  }
  return key;
}

std::string SeriesOf(const Point& p) { return Canonical(p) + "@" + kModel; }

void AnalysisTest::SetUp() {
  StoreTest::SetUp();
  if (HasFatalFailure()) return;
  conn_ = std::make_unique<pqxx::connection>(url_);
  analysis_store_ = OpenAnalysisStore();
  ASSERT_NE(analysis_store_, nullptr);
}

void AnalysisTest::TearDown() {
  analysis_store_.reset();
  conn_.reset();
  StoreTest::TearDown();
}

std::unique_ptr<analysis::AnalysisStore> AnalysisTest::OpenAnalysisStore() {
  PgStoreOptions options;
  options.url = url_;
  options.pool_size = 2;
  StatusOr<std::unique_ptr<analysis::AnalysisStore>> store = OpenPgAnalysisStore(options);
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  return store.ok() ? std::move(store).value() : nullptr;
}

int64_t AnalysisTest::AddScheduleRun() {
  const int64_t schedule =
      Sql("INSERT INTO schedule (name, cron, job_template) VALUES ('nightly-' ||"
          " (SELECT count(*) FROM schedule), '0 2 * * *', '{}'::jsonb) RETURNING id")
          .at(0)
          .at(0)
          .as<int64_t>();
  return Sql("INSERT INTO schedule_run (schedule_id, due_at, trigger, state)"
             " VALUES ($1, now(), 'MANUAL', 'FIRED') RETURNING id",
             schedule)
      .at(0)
      .at(0)
      .as<int64_t>();
}

namespace {

// A point as the worker reports it, with 20 samples around its median unless it has its own.
v1::Measurement AnalysisTestMeasurementOf(const Point& p) {
  v1::Measurement m;
  m.mutable_case_()->set_family(p.family);
  m.mutable_case_()->set_variant(p.variant);
  for (const auto& [k, v] : p.params) (*m.mutable_case_()->mutable_params())[k] = v;
  m.mutable_case_()->set_canonical(Canonical(p));
  m.set_status(p.ok ? v1::POINT_STATUS_OK : v1::POINT_STATUS_FAILED);
  m.set_verified(p.verified);
  m.set_throttled_fraction(p.throttled);
  m.mutable_stats()->set_median(p.median);
  m.set_median_sm_clock_mhz(p.clock_mhz);
  for (const auto& [name, value] : p.counters) (*m.mutable_counters())[name] = value;
  m.set_counters_note(p.counters_note);
  for (double x : p.samples) m.add_samples_seconds(x);
  for (int i = 0; p.samples.empty() && i < 20; ++i) {
    m.add_samples_seconds(p.median * (1 + (i - 9.5) * 1e-4));
  }
  return m;
}

}  // namespace

int64_t AnalysisTest::UploadRun(const std::vector<Point>& points, const Uploader& uploader,
                                const std::string& device) {
  v1::RunResult result;
  result.mutable_environment()->mutable_device()->set_uuid(device);
  result.mutable_environment()->mutable_device()->set_name(kModel);
  for (const Point& p : points) *result.add_measurements() = AnalysisTestMeasurementOf(p);
  // A distinct digest per call: the same points uploaded twice are two runs here.
  static int uploads = 0;
  StatusOr<UploadedRun> stored =
      store_->StoreUploadedRun(result, "test-digest-" + std::to_string(++uploads), uploader);
  EXPECT_TRUE(stored.ok()) << stored.status().ToString();
  return stored.ok() ? stored->run.id() : 0;
}

int64_t AnalysisTest::AddRun(const std::vector<Point>& points, const RunOptions& options) {
  int64_t job_id = 0;  // 0: none (NULL)
  if (options.job_id != 0) {
    job_id = options.job_id;
  } else if (!options.uploaded) {
    job_id = Sql("INSERT INTO job (spec, state, max_attempts, priority, labels, schedule_run_id)"
                 " VALUES ($1::jsonb, 'SUCCEEDED', 3, 5, '{\"nightly\": \"1\"}',"
                 " nullif($2::bigint, 0)) RETURNING id",
                 std::string("{\"families\": [\"memory.*\", \"reduce\"], \"measurement\": ") +
                     options.measurement +
                     ", \"labels\": {\"nightly\": \"1\"}, \"priority\": 5, \"max_attempts\": 3,"
                     " \"selector\": {\"gpu_model\": \"*H100*\"}}",
                 options.schedule_run_id)
                 .at(0)
                 .at(0)
                 .as<int64_t>();
  }
  const std::string labels =
      options.git_sha.empty() ? "{}" : "{\"git_sha\": \"" + options.git_sha + "\"}";
  const int64_t run_id =
      Sql("INSERT INTO run (job_id, worker_id, device_uuid, device_name, state,"
          " labels) VALUES (nullif($1::bigint, 0), $2, $3, $4, 'RUNNING',"
          " $5::jsonb) RETURNING id",
          job_id, std::string(kWorker), options.device, std::string(kModel), labels)
          .at(0)
          .at(0)
          .as<int64_t>();
  std::vector<v1::Measurement> batch;
  for (const Point& p : points) batch.push_back(AnalysisTestMeasurementOf(p));
  if (options.uploaded) {  // as StoreUploadedRun records it
    Sql("UPDATE run SET uploaded_by = $2, history_owner = $2 WHERE id = $1", run_id,
        options.uploader);
  }
  if (job_id != 0) Sql("UPDATE job SET current_run_id = $2 WHERE id = $1", job_id, run_id);
  if (!options.environment.empty()) {
    Sql("UPDATE run SET environment = $2::jsonb WHERE id = $1", run_id, options.environment);
  }
  StatusOr<UploadCounts> uploaded = store_->UploadMeasurements(run_id, kWorker, {}, batch);
  EXPECT_TRUE(uploaded.ok()) << uploaded.status().ToString();
  Sql("UPDATE run SET state = $2, finished_at = now() WHERE id = $1", run_id, options.state);
  return run_id;
}

std::vector<int64_t> AnalysisTest::AddNoisyRuns(const Point& base, int n, double noise,
                                                const RunOptions& options) {
  std::normal_distribution<double> normal(0, noise);
  std::vector<int64_t> ids;
  for (int i = 0; i < n; ++i) {
    Point p = base;
    p.median = base.median * (1 + normal(rng_));
    ids.push_back(AddRun({p}, options));
  }
  return ids;
}

int AnalysisTest::AnalyzeAll(analysis::AnalysisStore* store) {
  if (store == nullptr) store = analysis_store_.get();
  int claimed = 0;
  analysis::NightPeerCache night;  // kept across the runs of this call, as AnalysisLoop keeps it
  while (true) {
    StatusOr<std::optional<int64_t>> run = store->AnalyzeNextRun([&](analysis::AnalysisTx& tx) {
      StatusOr<analysis::RunAnalysisSummary> s = analysis::AnalyzeRun(tx, config_, &night);
      return s.ok() ? OkStatus() : s.status();
    });
    if (run.ok()) {
      night.Commit();
    } else {
      night.Discard();
    }
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    if (!run.ok() || !run->has_value()) return claimed;
    ++claimed;
  }
}

pqxx::result AnalysisTest::Sql(const std::string& sql) {
  pqxx::work tx(*conn_);
  pqxx::result r = tx.exec(sql);
  tx.commit();
  return r;
}

std::string AnalysisTest::PartitionOf(int64_t run) {
  pqxx::result r =
      Sql("SELECT name FROM warpwatch_measurement_partitions() WHERE lo <= $1 AND $1 < hi", run);
  return r.empty() ? "" : r[0][0].as<std::string>();
}

}  // namespace warpwatch::server::testing
