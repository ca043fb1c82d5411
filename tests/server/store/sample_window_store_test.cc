// File: tests/server/store/sample_window_store_test.cc
// The raw-sample window on a real PostgreSQL (Store::DropOldSamples,
// server/store/pg_store_sample_window.cc): a measurement past it keeps a slim document, and every
// read path gives back the measurement as uploaded, samples aside; slimming is idempotent, leaves
// rows inside the window alone, catches up on rows emptied or stored by older servers, and a batch
// that fails changes nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

using std::chrono::hours;

constexpr const char* kDevice = "NVIDIA H100";

// Every field filled (measured_at with nanoseconds, which the column cannot hold), one per case.
v1::Measurement EveryField() {
  v1::Measurement m;
  FillEveryField(&m);
  m.mutable_case_()->set_canonical("memory.copy/coalesced?n=1");
  return m;
}

// CounterPassMeasurement with samples, a non-finite counter (in its kernel's and launch's copies
// too), occupancy without achieved occupancy, a measured_at.
v1::Measurement WorkerPoint() {
  v1::Measurement m = CounterPassMeasurement();
  for (double s : {1.49e-4, 1.5e-4, 1.52e-4}) {
    m.add_samples_seconds(s);
    m.add_sample_sm_clock_mhz(1980);
    m.add_sample_throttled(false);
    m.add_sample_kernel_seconds(s * 0.98);
    m.add_sample_group(0);
  }
  m.mutable_stats()->set_p90(1.52e-4);
  m.mutable_occupancy()->set_block_size(256);
  m.mutable_occupancy()->set_limiter(v1::OCCUPANCY_LIMITER_REGISTERS);
  (*m.mutable_counters())["l1tex__t_sector_hit_rate.pct"] = std::nan("");
  *m.mutable_kernels(0)->mutable_counters() = m.counters();
  *m.mutable_launches(0)->mutable_counters() = m.counters();
  m.set_sample_count(3);
  m.mutable_measured_at()->set_seconds(1763900000);
  m.set_verified(true);
  return m;
}

// A failed point: an error, no statistics, an enum value newer than this server.
v1::Measurement FailedPoint() {
  v1::Measurement m;
  m.mutable_case_()->set_family("memory.copy");
  m.mutable_case_()->set_variant("strided");
  m.mutable_case_()->set_canonical("memory.copy/strided");
  m.set_status(v1::POINT_STATUS_FAILED);
  m.set_error("verification failed: max error 0.5");
  m.mutable_occupancy()->set_limiter(static_cast<v1::OccupancyLimiter>(12));
  return m;
}

v1::Measurement WithoutSamples(v1::Measurement m) {
  m.clear_samples_seconds();
  m.clear_sample_sm_clock_mhz();
  m.clear_sample_throttled();
  m.clear_sample_kernel_seconds();
  m.clear_sample_group();
  return m;
}

class SampleWindowStoreTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    if (HasFatalFailure()) return;
    worker_ = Register({MakeDevice("GPU-1", kDevice)});
    uploaded_ = {EveryField(), WorkerPoint(), FailedPoint()};
    run_id_ = FinishedRun(uploaded_);
    for (v1::Measurement& m : uploaded_) {
      m.set_run_id(run_id_);
      m.set_series_id(m.case_().canonical() + "@" + kDevice);
    }
  }

  // A run of `batch` on GPU-1, finished.
  int64_t FinishedRun(const std::vector<v1::Measurement>& batch) {
    const v1::Job job = Enqueue();
    std::optional<Lease> lease = Claim(worker_, "GPU-1", std::chrono::minutes(10));
    EXPECT_TRUE(lease.has_value());
    if (!lease) return 0;
    EXPECT_TRUE(store_->UploadMeasurements(lease->run_id, worker_, {}, batch).ok());
    EXPECT_TRUE(
        store_->FinishJob(worker_, job.id(), lease->run_id, v1::JOB_OUTCOME_SUCCEEDED, "").ok());
    return lease->run_id;
  }

  pqxx::result Sql(const std::string& sql) {
    pqxx::connection conn(url_);
    pqxx::nontransaction tx(conn);
    return tx.exec(sql);
  }
  // Each row of run `run`, by id: its document's md5, slim or not, and its sample arrays.
  std::vector<std::string> Rows(int64_t run) {
    std::vector<std::string> out;
    for (const pqxx::row& row :
         Sql("SELECT id, md5(doc_pb), substring(doc_pb from 1 for 1) = '\\x08'::bytea,"
             " samples_seconds::text, sample_group::text FROM measurement WHERE run_id = " +
             std::to_string(run) + " ORDER BY id")) {
      std::string line;
      for (const pqxx::field& f : row) line += std::string(f.is_null() ? "NULL" : f.c_str()) + " ";
      out.push_back(line);
    }
    return out;
  }
  int SlimRows() {
    return Sql("SELECT count(*) FROM measurement"
               " WHERE substring(doc_pb from 1 for 1) = '\\x08'::bytea")[0][0]
        .as<int>();
  }
  // Empties every old run's samples and slims their documents; returns how many measurements.
  int DropAll() {
    StatusOr<int> n = store_->DropOldSamples(hours(0), 1000);
    EXPECT_TRUE(n.ok()) << n.status().ToString();
    return n.ok() ? *n : -1;
  }

  // Reads run_id_ back through every store read of whole measurements and compares each with
  // what was uploaded (samples included when the read has them and `samples`).
  void ExpectReadsGiveBackTheUpload(bool samples) {
    ASSERT_OK_AND_ASSIGN(std::vector<v1::Measurement> listed, store_->ListRunMeasurements(run_id_));
    MeasurementQuery query;
    query.run_id = run_id_;
    query.include_samples = true;
    ASSERT_OK_AND_ASSIGN(MeasurementPage with, store_->QueryMeasurements(query));
    query.include_samples = false;
    ASSERT_OK_AND_ASSIGN(MeasurementPage without, store_->QueryMeasurements(query));
    ASSERT_EQ(listed.size(), uploaded_.size());
    ASSERT_EQ(with.measurements.size(), uploaded_.size());
    ASSERT_EQ(without.measurements.size(), uploaded_.size());
    for (size_t i = 0; i < uploaded_.size(); ++i) {
      SCOPED_TRACE(uploaded_[i].case_().canonical());
      const v1::Measurement full = samples ? uploaded_[i] : WithoutSamples(uploaded_[i]);
      ExpectSameMessage(full, listed[i]);
      ExpectSameMessage(full, with.measurements[i]);
      ExpectSameMessage(WithoutSamples(uploaded_[i]), without.measurements[i]);
    }
  }

  std::string worker_;
  int64_t run_id_ = 0;
  std::vector<v1::Measurement> uploaded_;  // run_id and series_id set, as reads give them
};

TEST_F(SampleWindowStoreTest, ARowPastTheWindowReadsBackAsUploadedWithoutItsSamples) {
  ExpectReadsGiveBackTheUpload(/*samples=*/true);
  const int doc_bytes = Sql("SELECT sum(length(doc_pb)) FROM measurement")[0][0].as<int>();
  EXPECT_EQ(DropAll(), 3);
  EXPECT_EQ(SlimRows(), 3);
  EXPECT_LT(Sql("SELECT sum(length(doc_pb)) FROM measurement")[0][0].as<int>(), doc_bytes);
  ExpectReadsGiveBackTheUpload(/*samples=*/false);
}

TEST_F(SampleWindowStoreTest, SlimmingTwiceChangesNothing) {
  ASSERT_EQ(DropAll(), 3);
  const std::vector<std::string> once = Rows(run_id_);
  EXPECT_EQ(DropAll(), 0);  // nothing left to do
  EXPECT_EQ(Rows(run_id_), once);
  // A slim row that has samples again is rebuilt and slimmed to the same document.
  Sql("UPDATE measurement SET samples_seconds = '{1.5}'");
  EXPECT_EQ(DropAll(), 3);
  EXPECT_EQ(Rows(run_id_), once);
  ExpectReadsGiveBackTheUpload(/*samples=*/false);
}

TEST_F(SampleWindowStoreTest, RowsInsideTheWindowAreLeftAlone) {
  const int64_t recent = FinishedRun({WorkerPoint()});
  Sql("UPDATE run SET finished_at = now() - interval '91 days' WHERE id = " +
      std::to_string(run_id_));
  const std::vector<std::string> before = Rows(recent);
  ASSERT_OK_AND_ASSIGN(int n, store_->DropOldSamples(hours(24 * 90), 1000));
  EXPECT_EQ(n, 3);
  EXPECT_EQ(Rows(recent), before);
  EXPECT_EQ(SlimRows(), 3);
}

TEST_F(SampleWindowStoreTest, RowsEmptiedBeforeSlimDocumentsAreSlimmedByTheNextPass) {
  // What the keeper did before slim documents: the arrays emptied, the whole document kept.
  Sql("UPDATE measurement SET samples_seconds = '{}', sample_sm_clock_mhz = '{}',"
      " sample_throttled = '{}', sample_kernel_seconds = '{}', sample_group = '{}'");
  EXPECT_EQ(DropAll(), 3);
  EXPECT_EQ(SlimRows(), 3);
  ExpectReadsGiveBackTheUpload(/*samples=*/false);
}

TEST_F(SampleWindowStoreTest, RowsWithAJsonDocumentAreSlimmedToo) {
  // Rows as servers before migration 0010 stored them: the document as JSON in doc, no doc_pb.
  for (const v1::Measurement& m : uploaded_) {
    ASSERT_OK_AND_ASSIGN(const std::string json, detail::MessageToJson(WithoutSamples(m)));
    pqxx::connection conn(url_);
    pqxx::nontransaction tx(conn);
    tx.exec_params(
        "UPDATE measurement SET doc = $1::jsonb, doc_pb = NULL WHERE case_canonical = $2", json,
        m.case_().canonical());
  }
  ExpectReadsGiveBackTheUpload(/*samples=*/true);
  EXPECT_EQ(DropAll(), 3);
  EXPECT_EQ(SlimRows(), 3);
  EXPECT_EQ(Sql("SELECT count(*) FROM measurement WHERE doc IS NOT NULL")[0][0].as<int>(), 0);
  ExpectReadsGiveBackTheUpload(/*samples=*/false);
}

TEST_F(SampleWindowStoreTest, ABatchThatFailsMidwayChangesNoRow) {
  const std::vector<std::string> before = Rows(run_id_);
  // The update of one row of the batch fails: the statement, and the transaction, with it.
  Sql("CREATE FUNCTION fail_last() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
      "  IF NEW.id = (SELECT max(id) FROM measurement) THEN RAISE EXCEPTION 'crash'; END IF;"
      "  RETURN NEW; END $$;"
      "CREATE TRIGGER fail_last BEFORE UPDATE ON measurement FOR EACH ROW"
      "  EXECUTE FUNCTION fail_last()");
  EXPECT_FALSE(store_->DropOldSamples(hours(0), 1000).ok());
  EXPECT_EQ(Rows(run_id_), before);
  Sql("DROP TRIGGER fail_last ON measurement");
  EXPECT_EQ(DropAll(), 3);
  ExpectReadsGiveBackTheUpload(/*samples=*/false);
}

TEST_F(SampleWindowStoreTest, ARowWhoseDocumentDoesNotDecodeLosesItsSamplesAndKeepsIt) {
  Sql("UPDATE measurement SET doc_pb = '\\x0aff' WHERE case_canonical = "
      "'reduce/two_pass?n=16777216'");
  EXPECT_EQ(DropAll(), 3);
  EXPECT_EQ(SlimRows(), 2);
  EXPECT_EQ(Sql("SELECT count(*) FROM measurement WHERE doc_pb = '\\x0aff'::bytea"
                " AND samples_seconds = '{}'")[0][0]
                .as<int>(),
            1);
  EXPECT_EQ(DropAll(), 0);  // looked at again, nothing to change
}

}  // namespace
}  // namespace warpwatch::server::testing
