// Tests of the two measurement ingest paths (PgStoreOptions::ingest): binary COPY, the default,
// stores exactly the rows of the JSON INSERT it replaced, and stays idempotent on (run, case)
// under concurrent uploads of one batch.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <cmath>
#include <future>
#include <limits>
#include <pqxx/pqxx>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

// A measurement with every column's field set, including a non-finite counter, an unset
// achieved occupancy (NULL) or a set one, and empty or filled sample arrays.
v1::Measurement Rich(const std::string& canonical, bool with_samples) {
  v1::Measurement m;
  m.mutable_case_()->set_family("memory.copy");
  m.mutable_case_()->set_variant("coalesced \"quoted\", {braced}");
  (*m.mutable_case_()->mutable_params())["n"] = int64_t{1} << 33;
  m.mutable_case_()->set_canonical(canonical);
  m.set_kernel_name("Copy<float>");
  m.set_status(v1::POINT_STATUS_FAILED);
  m.set_error("bad \\ value\n");
  if (with_samples) {
    for (int i = 0; i < 100; ++i) {
      m.add_samples_seconds(1e-5 * (1 + i * 1e-3) + 1e-19);
      m.add_sample_sm_clock_mhz(1980 - i % 3);
      m.add_sample_throttled(i % 7 == 0);
      m.add_sample_kernel_seconds(0.9e-5 * (1 + i * 1e-3));
      m.add_sample_group(i / 10 - 3);
    }
    m.add_samples_seconds(std::numeric_limits<double>::quiet_NaN());
    m.mutable_occupancy()->set_achieved(0.8125);
  }
  m.set_throttled_fraction(0.25);
  v1::SampleStats* st = m.mutable_stats();
  st->set_median(1.0000000000000002e-5);
  st->set_mean(1.1e-5);
  st->set_min(-0.0);
  st->set_max(std::numeric_limits<double>::infinity());
  st->set_stddev(1e-300);
  st->set_p10(0.9e-5);
  st->set_p90(1.2e-5);
  st->set_rel_stderr(0.001);
  m.set_median_sm_clock_mhz(1980.5);
  m.set_bytes(1e12);
  m.set_flops(3);
  m.set_gbps(3000.25);
  m.set_gflops(1.5);
  m.set_pct_of_peak_bandwidth(91.5);
  v1::Occupancy* oc = m.mutable_occupancy();
  oc->set_block_size(256);
  oc->set_grid_size(int64_t{1} << 40);
  oc->set_registers_per_thread(32);
  oc->set_static_shared_bytes(int64_t{1} << 35);
  oc->set_dynamic_shared_bytes(48);
  oc->set_local_bytes_per_thread(8);
  oc->set_max_threads_per_block(1024);
  oc->set_active_blocks_per_sm(8);
  oc->set_theoretical(1.0);
  oc->set_limiter(v1::OCCUPANCY_LIMITER_SHARED_MEMORY);
  (*m.mutable_counters())["dram__throughput"] = 91.5;
  (*m.mutable_counters())["nan_counter"] = std::numeric_limits<double>::quiet_NaN();
  m.set_counters_note("note \u00e9");
  m.set_verified(true);
  m.set_max_error(1e-7);
  m.set_l2_flushed(true);
  m.set_stop_reason("rel_stderr");
  m.mutable_measured_at()->set_seconds(1763900000);
  m.mutable_measured_at()->set_nanos(123456000);
  m.add_kernels()->set_name("Copy<float>");
  return m;
}

class IngestPathsTest : public StoreTest {
 protected:
  std::unique_ptr<Store> OpenWith(const std::string& ingest) {
    PgStoreOptions options;
    options.url = url_;
    options.pool_size = 4;
    options.ingest = ingest;
    StatusOr<std::unique_ptr<Store>> store = OpenPgStore(options);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::move(store).value() : nullptr;
  }

  // A run of a fresh job on GPU-1 (the previous one finished first); returns its id.
  int64_t OpenRun() {
    if (worker_.empty()) worker_ = Register({MakeDevice("GPU-1", "NVIDIA H100")});
    const v1::Job job = Enqueue();
    std::optional<Lease> lease = Claim(worker_, "GPU-1");
    EXPECT_TRUE(lease.has_value());
    return lease ? lease->run_id : 0;
  }
  void Close(int64_t run_id, int64_t job_id) {
    StatusOr<v1::Job> finished =
        store_->FinishJob(worker_, job_id, run_id, v1::JOB_OUTCOME_SUCCEEDED, "");
    EXPECT_TRUE(finished.ok()) << finished.status().ToString();
  }

  // Every column of run `run_id`'s measurements but id and run_id (doc_pb, which holds the run
  // id, compared decoded by the round trip test), as text, by case.
  std::vector<std::string> Rows(int64_t run_id) {
    pqxx::connection conn(url_);
    pqxx::nontransaction tx(conn);
    pqxx::result r = tx.exec_params(
        "SELECT (to_jsonb(m) - 'id' - 'run_id' - 'doc_pb')::text FROM measurement m"
        " WHERE run_id = $1 ORDER BY case_canonical",
        run_id);
    std::vector<std::string> rows;
    for (const pqxx::row& row : r) rows.push_back(row[0].as<std::string>());
    return rows;
  }

  std::string worker_;
};

TEST_F(IngestPathsTest, CopyAndJsonStoreIdenticalRowsThatReadBackAsUploaded) {
  const std::vector<v1::Measurement> batch = {Rich("c?n=1", true), Rich("c?n=2", false)};
  std::vector<int64_t> runs;
  for (const std::string ingest : {"json", "copy"}) {
    std::unique_ptr<Store> store = OpenWith(ingest);
    ASSERT_NE(store, nullptr);
    const int64_t run = OpenRun();
    ASSERT_OK_AND_ASSIGN(UploadCounts counts, store->UploadMeasurements(run, worker_, {}, batch));
    EXPECT_EQ(counts.inserted, 2) << ingest;
    ASSERT_OK_AND_ASSIGN(std::vector<v1::Measurement> back, store->ListRunMeasurements(run));
    ASSERT_EQ(back.size(), batch.size()) << ingest;
    for (size_t i = 0; i < batch.size(); ++i) {
      v1::Measurement expected = batch[i];
      expected.set_run_id(run);
      expected.set_series_id(back[i].series_id());
      google::protobuf::util::MessageDifferencer diff;
      std::string report;
      diff.ReportDifferencesToString(&report);
      google::protobuf::util::DefaultFieldComparator numbers;
      numbers.set_treat_nan_as_equal(true);
      diff.set_field_comparator(&numbers);
      EXPECT_TRUE(diff.Compare(expected, back[i])) << ingest << ": " << report;
    }
    runs.push_back(run);
    pqxx::connection conn(url_);
    pqxx::nontransaction tx(conn);
    Close(run, tx.exec_params1("SELECT job_id FROM run WHERE id = $1", run)[0].as<int64_t>());
  }
  const std::vector<std::string> json_rows = Rows(runs[0]);
  ASSERT_EQ(json_rows.size(), 2u);
  EXPECT_EQ(json_rows, Rows(runs[1]));
}

TEST_F(IngestPathsTest, ConcurrentCopiesOfOneBatchStoreEachCaseOnce) {
  const int64_t run = OpenRun();
  std::vector<v1::Measurement> batch;
  for (int i = 0; i < 64; ++i) batch.push_back(Rich("c?n=" + std::to_string(i), true));
  batch.push_back(batch.front());  // repeated within the batch too
  std::vector<std::future<StatusOr<UploadCounts>>> uploads;
  for (int t = 0; t < 4; ++t) {
    uploads.push_back(std::async(
        std::launch::async, [&] { return store_->UploadMeasurements(run, worker_, {}, batch); }));
  }
  int inserted = 0;
  for (auto& upload : uploads) {
    StatusOr<UploadCounts> counts = upload.get();
    ASSERT_TRUE(counts.ok()) << counts.status().ToString();
    inserted += counts->inserted;
    EXPECT_EQ(counts->inserted + counts->duplicates, 65);
  }
  EXPECT_EQ(inserted, 64);
  EXPECT_EQ(Rows(run).size(), 64u);
}

// The copy path finds the batch's stored cases by probing the (run_id, case_canonical) key with
// the batch's keys as a text array: keys with quotes, commas, braces, backslashes and spaces are
// matched exactly, and a batch overlapping what the run holds stores only its new cases.
TEST_F(IngestPathsTest, ABatchOverlappingTheRunsStoredCasesStoresOnlyItsNewOnes) {
  const int64_t run = OpenRun();
  auto key = [](int i) { return "c?v=\"a,b\" {x}\\ NULL&i=" + std::to_string(i); };
  std::vector<v1::Measurement> first;
  for (int i = 0; i < 100; ++i) first.push_back(Rich(key(i), i % 2 == 0));
  StatusOr<UploadCounts> counts = store_->UploadMeasurements(run, worker_, {}, first);
  ASSERT_TRUE(counts.ok()) << counts.status().ToString();
  EXPECT_EQ(counts->inserted, 100);
  std::vector<v1::Measurement> second;
  for (int i = 50; i < 150; ++i) second.push_back(Rich(key(i), false));
  counts = store_->UploadMeasurements(run, worker_, {}, second);
  ASSERT_TRUE(counts.ok()) << counts.status().ToString();
  EXPECT_EQ(counts->inserted, 50);
  EXPECT_EQ(counts->duplicates, 50);
  pqxx::connection conn(url_);
  pqxx::nontransaction tx(conn);
  EXPECT_EQ(tx.exec_params("SELECT count(DISTINCT case_canonical) FROM measurement"
                           " WHERE run_id = $1 AND case_canonical LIKE 'c?v=\"a,b\" {x}%'",
                           run)[0][0]
                .as<int>(),
            150);
  // The first upload's rows were kept (samples on the even ones), not replaced by the second's.
  EXPECT_EQ(tx.exec_params("SELECT count(*) FROM measurement WHERE run_id = $1"
                           " AND cardinality(samples_seconds) > 0",
                           run)[0][0]
                .as<int>(),
            50);
}

TEST_F(IngestPathsTest, AnUnknownIngestPathIsRefused) {
  PgStoreOptions options;
  options.url = url_;
  options.ingest = "csv";
  EXPECT_EQ(OpenPgStore(options).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace warpwatch::server::testing
