// Tests of measurement ingest in the PostgreSQL store.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <cmath>
#include <pqxx/pqxx>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

v1::Measurement MakeMeasurement(const std::string& canonical, double median) {
  v1::Measurement m;
  m.mutable_case_()->set_family("memory.copy");
  m.mutable_case_()->set_variant("coalesced");
  (*m.mutable_case_()->mutable_params())["n"] = 1 << 20;
  m.mutable_case_()->set_canonical(canonical);
  m.set_status(v1::POINT_STATUS_OK);
  for (double s : {median * 0.99, median, median * 1.01}) m.add_samples_seconds(s);
  for (int i = 0; i < 3; ++i) {
    m.add_sample_sm_clock_mhz(1980);
    m.add_sample_throttled(i == 2);
  }
  m.mutable_stats()->set_median(median);
  m.mutable_occupancy()->set_block_size(256);
  m.mutable_occupancy()->set_theoretical(1.0);
  m.mutable_occupancy()->set_limiter(v1::OCCUPANCY_LIMITER_WARPS);
  (*m.mutable_counters())["dram__throughput.avg.pct_of_peak_sustained_elapsed"] = 91.5;
  m.set_verified(true);
  return m;
}

class MeasurementStoreTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    if (HasFatalFailure()) return;
    worker_ = Register({MakeDevice("GPU-1", "NVIDIA H100")});
    Enqueue();
    ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(worker_, "GPU-1", std::chrono::seconds(30)));
    ASSERT_TRUE(lease.has_value());
    run_id_ = lease->run_id;
  }
  std::string worker_;
  int64_t run_id_ = 0;
};

TEST_F(MeasurementStoreTest, UploadIsIdempotentOnRunAndCase) {
  std::vector<v1::Measurement> batch = {MakeMeasurement("memory.copy/coalesced?n=1", 1e-3),
                                        MakeMeasurement("memory.copy/coalesced?n=2", 2e-3)};
  ASSERT_OK_AND_ASSIGN(UploadCounts first, store_->UploadMeasurements(run_id_, worker_, {}, batch));
  EXPECT_EQ(first.inserted, 2);
  EXPECT_EQ(first.duplicates, 0);
  batch.push_back(MakeMeasurement("memory.copy/coalesced?n=3", 3e-3));
  batch[0].mutable_stats()->set_median(9.0);  // a retry never overwrites
  ASSERT_OK_AND_ASSIGN(UploadCounts retry, store_->UploadMeasurements(run_id_, worker_, {}, batch));
  EXPECT_EQ(retry.inserted, 1);
  EXPECT_EQ(retry.duplicates, 2);
  pqxx::connection conn(url_);
  pqxx::nontransaction tx(conn);
  EXPECT_EQ(
      tx.exec_params1("SELECT count(*) FROM measurement WHERE run_id = $1", run_id_)[0].as<int>(),
      3);
  EXPECT_DOUBLE_EQ(
      tx.exec_params1("SELECT median_seconds FROM measurement WHERE case_canonical = $1",
                      std::string("memory.copy/coalesced?n=1"))[0]
          .as<double>(),
      1e-3);
}

TEST_F(MeasurementStoreTest, EveryFieldLandsInItsColumn) {
  v1::Measurement m = MakeMeasurement("memory.copy/coalesced?n=1", 1.25e-4);
  v1::RunEnvironment env;
  env.set_hostname("node-1");
  env.set_driver_version("580.65");
  *env.mutable_device() = MakeDevice("GPU-1", "NVIDIA H100");
  ASSERT_OK(store_->UploadMeasurements(run_id_, worker_, env, {m}).status());
  pqxx::connection conn(url_);
  pqxx::nontransaction tx(conn);
  pqxx::row row = tx.exec_params1(
      "SELECT series_id, samples_seconds::text, sample_throttled::text, median_seconds,"
      " block_size, occupancy_limiter, achieved_occupancy IS NULL,"
      " (counters->>'dram__throughput.avg.pct_of_peak_sustained_elapsed')::float8, verified,"
      " doc IS NULL AND doc_pb IS NOT NULL, params->>'n', status"
      " FROM measurement WHERE run_id = $1",
      run_id_);
  EXPECT_EQ(row[0].as<std::string>(), "memory.copy/coalesced?n=1@NVIDIA H100");
  EXPECT_EQ(row[1].as<std::string>(), "{0.00012375,0.000125,0.00012625}");
  EXPECT_EQ(row[2].as<std::string>(), "{f,f,t}");
  EXPECT_DOUBLE_EQ(row[3].as<double>(), 1.25e-4);
  EXPECT_EQ(row[4].as<int>(), 256);
  EXPECT_EQ(row[5].as<std::string>(), "WARPS");
  EXPECT_TRUE(row[6].as<bool>());
  EXPECT_DOUBLE_EQ(row[7].as<double>(), 91.5);
  EXPECT_TRUE(row[8].as<bool>());
  EXPECT_TRUE(row[9].as<bool>());  // the document is stored in its binary form only
  EXPECT_EQ(row[10].as<std::string>(), "1048576");
  EXPECT_EQ(row[11].as<std::string>(), "OK");
  pqxx::row run =
      tx.exec_params1("SELECT hostname, driver_version FROM run WHERE id = $1", run_id_);
  EXPECT_EQ(run[0].as<std::string>(), "node-1");
  EXPECT_EQ(run[1].as<std::string>(), "580.65");
}

TEST_F(MeasurementStoreTest, AchievedOccupancyIsStoredWhenMeasured) {
  v1::Measurement m = MakeMeasurement("memory.copy/coalesced?n=1", 1e-3);
  m.mutable_occupancy()->set_achieved(0.8125);
  ASSERT_OK(store_->UploadMeasurements(run_id_, worker_, {}, {m}).status());
  pqxx::connection conn(url_);
  pqxx::nontransaction tx(conn);
  EXPECT_DOUBLE_EQ(tx.exec1("SELECT achieved_occupancy FROM measurement")[0].as<double>(), 0.8125);
}

TEST_F(MeasurementStoreTest, UploadsAreRefusedForUnknownOrForeignRunsAndMissingKeys) {
  const std::string other = Register({MakeDevice("GPU-2", "NVIDIA H100")});
  const std::vector<v1::Measurement> batch = {MakeMeasurement("c?n=1", 1e-3)};
  EXPECT_EQ(store_->UploadMeasurements(run_id_ + 100, worker_, {}, batch).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(store_->UploadMeasurements(run_id_, other, {}, batch).status().code(),
            StatusCode::kPermissionDenied);
  EXPECT_EQ(store_->UploadMeasurements(run_id_, worker_, {}, {v1::Measurement()}).status().code(),
            StatusCode::kInvalidArgument);
}

TEST_F(MeasurementStoreTest, EveryMeasurementFieldRoundTripsThroughTheStore) {
  // Every field of Measurement, present and future (filled by reflection), the new repeated
  // per-sample and per-kernel ones included.
  v1::Measurement m;
  FillEveryField(&m);
  m.mutable_case_()->set_canonical("memory.copy/coalesced?n=1");
  m.mutable_occupancy()->set_achieved(0.8125);
  v1::Measurement nan = MakeMeasurement("memory.copy/coalesced?n=2", 1e-3);
  nan.add_samples_seconds(std::nan(""));
  nan.add_sample_kernel_seconds(HUGE_VAL);
  nan.mutable_stats()->set_rel_stderr(std::nan(""));
  ASSERT_OK_AND_ASSIGN(UploadCounts counts,
                       store_->UploadMeasurements(run_id_, worker_, {}, {m, nan}));
  EXPECT_EQ(counts.inserted, 2);
  ASSERT_OK_AND_ASSIGN(std::vector<v1::Measurement> back, store_->ListRunMeasurements(run_id_));
  ASSERT_EQ(back.size(), 2u);
  v1::Measurement expected = m;
  expected.set_run_id(run_id_);
  expected.set_series_id("memory.copy/coalesced?n=1@NVIDIA H100");
  google::protobuf::util::MessageDifferencer differ;
  std::string differences;
  differ.ReportDifferencesToString(&differences);
  EXPECT_TRUE(differ.Compare(expected, back[0])) << differences;
  // Non-finite values survive too.
  ASSERT_EQ(back[1].samples_seconds_size(), 4);
  EXPECT_TRUE(std::isnan(back[1].samples_seconds(3)));
  ASSERT_EQ(back[1].sample_kernel_seconds_size(), 1);
  EXPECT_TRUE(std::isinf(back[1].sample_kernel_seconds(0)));
  EXPECT_TRUE(std::isnan(back[1].stats().rel_stderr()));
  EXPECT_EQ(store_->ListRunMeasurements(run_id_ + 1000).status().code(), StatusCode::kNotFound);
}

TEST_F(MeasurementStoreTest, EachSampleArrayIsStoredOnceInItsColumnNotAgainInTheDocument) {
  v1::Measurement m = MakeMeasurement("memory.copy/coalesced?n=1", 1e-3);
  m.add_sample_kernel_seconds(9e-4);
  m.add_sample_group(0);
  ASSERT_OK(store_->UploadMeasurements(run_id_, worker_, {}, {m}).status());
  pqxx::connection conn(url_);
  pqxx::nontransaction tx(conn);
  pqxx::row row = tx.exec_params1(
      "SELECT doc_pb, sample_kernel_seconds::text, sample_group::text"
      " FROM measurement WHERE run_id = $1",
      run_id_);
  const pqxx::binarystring bytes(row[0]);
  v1::Measurement doc;
  ASSERT_TRUE(doc.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())));
  EXPECT_EQ(doc.samples_seconds_size(), 0);
  EXPECT_EQ(doc.sample_sm_clock_mhz_size(), 0);
  EXPECT_EQ(doc.sample_throttled_size(), 0);
  EXPECT_EQ(doc.sample_kernel_seconds_size(), 0);
  EXPECT_EQ(doc.sample_group_size(), 0);
  EXPECT_DOUBLE_EQ(doc.stats().median(), 1e-3);  // the rest of the proto is in the document
  EXPECT_EQ(row[1].as<std::string>(), "{0.0009}");
  EXPECT_EQ(row[2].as<std::string>(), "{0}");
}

TEST_F(MeasurementStoreTest, ABatchRepeatingACaseStoresItOnce) {
  ASSERT_OK_AND_ASSIGN(
      UploadCounts counts,
      store_->UploadMeasurements(run_id_, worker_, {},
                                 {MakeMeasurement("c?n=1", 1e-3), MakeMeasurement("c?n=1", 2e-3),
                                  MakeMeasurement("c?n=2", 3e-3)}));
  EXPECT_EQ(counts.inserted, 2);
  EXPECT_EQ(counts.duplicates, 1);
  ASSERT_OK_AND_ASSIGN(std::vector<v1::Measurement> back, store_->ListRunMeasurements(run_id_));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_DOUBLE_EQ(back[0].stats().median(), 1e-3);  // the first of the batch wins
}

}  // namespace
}  // namespace warpwatch::server::testing
