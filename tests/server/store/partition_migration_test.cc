// Migration 0019 (measurement partitioned by run id, docs/partitioning.md) on a database with
// data written at schema 0018: no row lost, every reference still resolving, uploads still
// idempotent, new uploads in the partition of their run. Prints the migration's wall time.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include "tests/server/analysis/analysis_test_util.h"

namespace warpwatch::server::testing {
namespace {

// The tables a conversion must leave as they were.
constexpr const char* kTables[] = {"job",          "run",          "measurement",
                                   "regression",   "regression_run", "regression_event",
                                   "baseline_pin", "baseline_pin_run", "measurement_rollup"};

class PartitionMigrationTest : public AnalysisTest {
 protected:
  PartitionMigrationTest() { migrate_to_ = 18; }

  int64_t Count(const std::string& sql) { return Sql(sql).at(0).at(0).as<int64_t>(); }
  std::map<std::string, int64_t> RowCounts() {
    std::map<std::string, int64_t> counts;
    for (const char* table : kTables) {
      counts[table] = Count(std::string("SELECT count(*) FROM ") + table);
    }
    return counts;
  }
  // Pointers at a measurement that resolve to a measurement of the row's own run.
  int64_t Resolving(const std::string& table) {
    return Count("SELECT count(*) FROM " + table +
                 " g JOIN measurement m ON m.run_id = g.run_id AND m.id = g.measurement_id");
  }
  int64_t Pointers(const std::string& table) {
    return Count("SELECT count(*) FROM " + table + " WHERE measurement_id IS NOT NULL");
  }

  // What the store writes: a history, a slow run the analysis flags (regression and
  // regression_run rows naming its measurement), a pinned baseline; then `bulk_runs` runs of
  // 100 measurements with 100 samples each, stored by SQL as fast as possible.
  void StoreData(int bulk_runs) {
    std::vector<int64_t> history;
    for (int i = 0; i < 10; ++i) {
      Point p;
      p.median = 1e-4 * (1 + 0.001 * (i % 3));
      history.push_back(AddRun({p}));
    }
    Point slow;
    slow.median = 1.06e-4;
    AddRun({slow});
    ASSERT_EQ(AnalyzeAll(), 11);
    BaselinePinRequest pin;
    pin.run_ids = {history[0]};
    pin.pinned_by = "ci";
    ASSERT_TRUE(store_->PinBaseline(pin, 0.05).ok());
    Sql("INSERT INTO run (device_uuid, device_name, state, started_at, finished_at)"
        " SELECT $1, $2, 'SUCCEEDED', now() - g * interval '1 hour',"
        "  now() - g * interval '1 hour' + interval '10 minutes'"
        " FROM generate_series(1, $3::int) g",
        std::string(kDeviceB), std::string(kModel), bulk_runs);
    Sql("INSERT INTO measurement (run_id, case_canonical, family, variant, series_id, status,"
        " device_uuid, doc_pb, samples_seconds, sample_sm_clock_mhz, median_seconds, verified)"
        " SELECT r.id, 'bulk/v?n=' || c, 'bulk', 'v', 'bulk/v?n=' || c || '@' || r.device_name,"
        "  'OK', r.device_uuid, decode(repeat('0a', 600), 'hex'),"
        "  array_fill(1e-4::float8, ARRAY[100]), array_fill(1980::float8, ARRAY[100]), 1e-4, true"
        " FROM run r, generate_series(1, 100) c WHERE r.device_uuid = $1",
        std::string(kDeviceB));
    Sql("ANALYZE");
  }
};

TEST_F(PartitionMigrationTest, ConvertingADatabaseWithDataKeepsEveryRowAndReference) {
  StoreData(200);
  if (HasFatalFailure()) return;
  const std::map<std::string, int64_t> before = RowCounts();
  const int64_t regression_pointers = Pointers("regression");
  const int64_t run_pointers = Pointers("regression_run");
  ASSERT_GT(regression_pointers, 0);  // the analysis named the slow run's measurement
  ASSERT_GT(run_pointers, 0);
  ASSERT_GT(before.at("baseline_pin_run"), 0);

  const auto start = std::chrono::steady_clock::now();
  ASSERT_OK(RunMigrations(url_));
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                              start)
                        .count();
  std::printf("migration 0019 on %lld measurements (%lld runs): %.0f ms\n",
              static_cast<long long>(before.at("measurement")),
              static_cast<long long>(before.at("run")), ms);

  EXPECT_EQ(RowCounts(), before);
  EXPECT_EQ(Pointers("regression"), regression_pointers);
  EXPECT_EQ(Resolving("regression"), regression_pointers);
  EXPECT_EQ(Pointers("regression_run"), run_pointers);
  EXPECT_EQ(Resolving("regression_run"), run_pointers);
  // The stored rows are the first partition; measurement itself is partitioned.
  EXPECT_EQ(Count("SELECT count(*) FROM measurement_runs_0"), before.at("measurement"));
  EXPECT_EQ(Sql("SELECT relkind::text FROM pg_class WHERE relname = 'measurement'")
                .at(0)
                .at(0)
                .as<std::string>(),
            "p");
  // The id sequence goes on where it was.
  EXPECT_GT(Count("SELECT nextval('measurement_id_seq')"),
            Count("SELECT max(id) FROM measurement"));
}

TEST_F(PartitionMigrationTest, AfterTheConversionUploadsAreIdempotentAndLandInTheirRunsPartition) {
  StoreData(10);
  if (HasFatalFailure()) return;
  Point p;
  const int64_t old_run = AddRun({p});
  ASSERT_OK(RunMigrations(url_));

  // A run started after the conversion: its id is beyond the first partition.
  const int64_t run = Sql("INSERT INTO run (worker_id, device_uuid, device_name, state)"
                          " VALUES ($1, $2, $3, 'RUNNING') RETURNING id",
                          std::string(kWorker), std::string(kDeviceA), std::string(kModel))
                          .at(0)
                          .at(0)
                          .as<int64_t>();
  ASSERT_OK_AND_ASSIGN(std::vector<v1::Measurement> points, store_->ListRunMeasurements(old_run));
  ASSERT_EQ(points.size(), 1u);
  ASSERT_OK_AND_ASSIGN(UploadCounts first, store_->UploadMeasurements(run, kWorker, {}, points));
  EXPECT_EQ(first.inserted, 1);
  ASSERT_OK_AND_ASSIGN(UploadCounts again, store_->UploadMeasurements(run, kWorker, {}, points));
  EXPECT_EQ(again.inserted, 0);
  EXPECT_EQ(again.duplicates, 1);

  pqxx::result where = Sql(
      "SELECT m.tableoid::regclass::text, p.name FROM measurement m"
      " JOIN warpwatch_measurement_partitions() p ON m.run_id >= p.lo AND m.run_id < p.hi"
      " WHERE m.run_id = $1",
      run);
  ASSERT_EQ(where.size(), 1u);
  EXPECT_EQ(where[0][0].as<std::string>(), where[0][1].as<std::string>());
  EXPECT_NE(where[0][0].as<std::string>(), "measurement_runs_0");
  ASSERT_OK_AND_ASSIGN(std::vector<v1::Measurement> stored, store_->ListRunMeasurements(run));
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].case_().canonical(), points[0].case_().canonical());
}

}  // namespace
}  // namespace warpwatch::server::testing
