// File: tests/server/store/ingest_rate_test.cc
// Measurement ingest rate through Store::UploadMeasurements on a real PostgreSQL, with batches
// shaped like the worker's (64 measurements of 1000 samples each), and the bytes the measurement
// table takes per measurement. Prints both (issue 14 item 9 quotes them); asserts every
// measurement is stored once, so the figures are of a correct ingest.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <pqxx/pqxx>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

constexpr int kIngestRateMeasurements = 256;
constexpr int kIngestRateBatch = 64;
constexpr int kIngestRateSamples = 1000;

v1::Measurement Realistic(int i) {
  v1::Measurement m;
  m.mutable_case_()->set_family("memory.copy");
  m.mutable_case_()->set_variant("coalesced");
  (*m.mutable_case_()->mutable_params())["n"] = int64_t{1} << 20;
  (*m.mutable_case_()->mutable_params())["block_size"] = 32 * (1 + i % 32);
  m.mutable_case_()->set_canonical(
      "memory.copy/coalesced?block_size=" + std::to_string(32 * (1 + i % 32)) +
      "&n=1048576&i=" + std::to_string(i));
  m.set_status(v1::POINT_STATUS_OK);
  // Noise like real timings (full-precision doubles that do not compress away).
  uint64_t state = 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(i + 1);
  auto noise = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) / 9007199254740992.0;  // [0, 1)
  };
  for (int s = 0; s < kIngestRateSamples; ++s) {
    m.add_samples_seconds(4.4e-5 * (1.0 + 0.02 * noise()));
    m.add_sample_sm_clock_mhz(1980 - (noise() < 0.01 ? 15 : 0));
    m.add_sample_throttled(noise() < 0.01);
    m.add_sample_kernel_seconds(4.3e-5 * (1.0 + 0.02 * noise()));
    m.add_sample_group(s / 100);
  }
  m.mutable_stats()->set_median(4.4e-5);
  m.mutable_stats()->set_mean(4.41e-5);
  m.mutable_occupancy()->set_block_size(256);
  m.mutable_occupancy()->set_theoretical(1.0);
  m.mutable_occupancy()->set_achieved(0.91);
  for (const char* c : {"dram__throughput.avg.pct_of_peak_sustained_elapsed",
                        "sm__warps_active.avg.pct_of_peak_sustained_active",
                        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"}) {
    (*m.mutable_counters())[c] = 91.5;
  }
  v1::KernelInfo* k = m.add_kernels();
  k->set_name("CoalescingCopyKernel<0>");
  k->set_demangled("void warpwatch::kernels::CoalescingCopyKernel<0>(float const*, float*, long)");
  k->set_mangled("_ZN9warpwatch7kernels20CoalescingCopyKernelILi0EEEvPKfPfl");
  k->set_median_seconds(4.3e-5);
  k->set_launches(1);
  m.set_kernel_median_seconds(4.3e-5);
  m.set_sample_groups(10);
  m.set_verified(true);
  m.set_stop_reason("noise");
  return m;
}

class IngestRateTest : public StoreTest {};

TEST_F(IngestRateTest, StoresEveryMeasurementOnceAndReportsTheRate) {
  const std::string worker = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  Enqueue();
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(worker, "GPU-1", std::chrono::minutes(10)));
  ASSERT_TRUE(lease.has_value());
  std::vector<std::vector<v1::Measurement>> batches;
  for (int i = 0; i < kIngestRateMeasurements; i += kIngestRateBatch) {
    std::vector<v1::Measurement> batch;
    for (int j = i; j < i + kIngestRateBatch; ++j) batch.push_back(Realistic(j));
    batches.push_back(std::move(batch));
  }
  const auto start = std::chrono::steady_clock::now();
  int inserted = 0;
  for (const auto& batch : batches) {
    ASSERT_OK_AND_ASSIGN(UploadCounts counts,
                         store_->UploadMeasurements(lease->run_id, worker, {}, batch));
    inserted += counts.inserted;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(inserted, kIngestRateMeasurements);
  pqxx::connection conn(url_);
  pqxx::nontransaction tx(conn);
  tx.exec("VACUUM ANALYZE measurement");
  pqxx::row row =
      tx.exec1("SELECT count(*), pg_total_relation_size('measurement') FROM measurement");
  EXPECT_EQ(row[0].as<int>(), kIngestRateMeasurements);
  const double bytes = row[1].as<double>();
  std::printf(
      "[ingest] %d measurements x %d samples in batches of %d: %.2f s, %.0f measurements/s, "
      "%.0f samples/s; measurement table %.1f MiB, %.0f bytes per measurement\n",
      kIngestRateMeasurements, kIngestRateSamples, kIngestRateBatch, seconds,
      kIngestRateMeasurements / seconds,
      kIngestRateMeasurements * double{kIngestRateSamples} / seconds, bytes / (1 << 20),
      bytes / kIngestRateMeasurements);
}

}  // namespace
}  // namespace warpwatch::server::testing
