// File: bench/detail/background_load.cc
#include "bench/detail/background_load.h"

#include <algorithm>
#include <chrono>
#include <pqxx/pqxx>
#include <random>

#include "server/analysis/analysis_loop.h"
#include "server/analysis/run_analyzer.h"
#include "server/incidents/incident_sweep.h"
#include "server/store/detail/conversions.h"
#include "server/store/pg_analysis_store.h"
#include "server/store/pg_incident_store.h"
#include "server/store/pg_store.h"
#include "warpwatch/v1/measurement.pb.h"
#include "worker/stats/sample_stats.h"

namespace warpwatch::bench {
namespace {

using Clock = std::chrono::steady_clock;

double NowSeconds() {
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

// 2025-01-01T00:00:00Z, the loaded history's first night (history_load.cc's InsertRuns).
constexpr int64_t kFirstNightMicros = 1735689600LL * 1000000;
constexpr int64_t kDayMicros = 86400LL * 1000000;
constexpr char kUploader[] = "bench-uploader";

// Device `d`'s run of night `night`: every case, medians drawn as the loaded history's are
// (1e-3 x (1 + 0.01 i) x (1 + 0.02 u)), `samples` samples each spread +-0.5 % around it.
v1::RunResult NightRun(const HistoryShape& shape, int samples, int d, int night,
                       std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(0, 1);
  v1::RunResult run;
  v1::Device* device = run.mutable_environment()->mutable_device();
  device->set_uuid(HistoryShape::Device(d));
  device->set_name(HistoryShape::Model(d % shape.models));
  const int64_t start = kFirstNightMicros + night * kDayMicros + d * 10LL * 1000000;
  *run.mutable_started_at() = server::detail::TimestampFromMicros(start);
  *run.mutable_finished_at() = server::detail::TimestampFromMicros(start + 120LL * 1000000);
  for (int i = 0; i < shape.cases; ++i) {
    v1::Measurement* m = run.add_measurements();
    m->mutable_case_()->set_canonical(HistoryShape::CaseKey(i));
    m->mutable_case_()->set_family("fam" + std::to_string(i % 28));
    m->mutable_case_()->set_variant("v" + std::to_string(i / 28));
    (*m->mutable_case_()->mutable_params())["n"] = i;
    m->set_kernel_name("fam" + std::to_string(i % 28) + "_kernel");
    m->set_status(v1::POINT_STATUS_OK);
    m->set_verified(true);
    const double median = 1e-3 * (1 + i * 0.01) * (1 + 0.02 * unit(rng));
    std::vector<double> values;
    for (int s = 0; s < samples; ++s) {
      const double v = median * (1 + 0.01 * (unit(rng) - 0.5));
      values.push_back(v);
      m->add_samples_seconds(v);
      m->add_sample_kernel_seconds(v * 0.98);
      m->add_sample_sm_clock_mhz(1980);
      m->add_sample_throttled(false);
      m->add_sample_group(s * 4 / samples);
    }
    m->set_sample_count(samples);
    *m->mutable_stats() = worker::ComputeSampleStats(values);  // as the worker summarises
    m->set_median_sm_clock_mhz(1980);
    m->mutable_occupancy()->set_theoretical(0.5);
    *m->mutable_measured_at() = server::detail::TimestampFromMicros(start + i * 100000LL);
  }
  return run;
}

}  // namespace

BackgroundLoad::BackgroundLoad(const HistoryShape& shape, const BackgroundOptions& options)
    : shape_(shape), options_(options) {}

StatusOr<std::unique_ptr<BackgroundLoad>> BackgroundLoad::Start(const std::string& url,
                                                                const HistoryShape& shape,
                                                                const BackgroundOptions& options) {
  std::unique_ptr<BackgroundLoad> load(new BackgroundLoad(shape, options));
  server::PgStoreOptions store_options;
  store_options.url = url;
  store_options.pool_size = 2;
  store_options.statement_timeout = std::chrono::milliseconds(0);
  load->start_seconds_ = NowSeconds();
  if (options.ingest_rate > 0) {
    ASSIGN_OR_RETURN(load->store_, server::OpenPgStore(store_options));
    // Runs an earlier invocation uploaded into this database (--url): continue after them, so
    // every upload is new (its digest and its night).
    try {
      pqxx::connection conn(url);
      pqxx::nontransaction tx(conn);
      load->first_upload_ = tx.exec1("SELECT count(*) FROM run WHERE uploaded_by = '" +
                                     std::string(kUploader) + "'")[0]
                                .as<int64_t>();
    } catch (const std::exception& e) {
      return InternalError(std::string("background: counting earlier uploads: ") + e.what());
    }
    load->ingest_ = std::thread([l = load.get()] { l->Ingest(); });
  }
  if (options.analysis) {
    ASSIGN_OR_RETURN(load->analysis_store_, server::OpenPgAnalysisStore(store_options));
    ASSIGN_OR_RETURN(load->incident_store_, server::OpenPgIncidentStore(store_options));
    server::analysis::AnalysisLoopOptions loop_options;
    loop_options.fallback_interval = std::chrono::milliseconds(500);
    loop_options.max_runs_per_pass = 1;
    BackgroundLoad* l = load.get();
    loop_options.on_analysed = [l](const server::analysis::RunAnalysisSummary& s) {
      StatusOr<server::incidents::SweepSummary> swept =
          server::incidents::SweepIncidents(*l->incident_store_);
      std::lock_guard<std::mutex> lock(l->mu_);
      const double now = NowSeconds();
      l->summary_.analysis_ms.push_back(1e3 * (now - l->last_analysed_));
      l->last_analysed_ = now;
      if (!swept.ok() && l->summary_.error.empty()) {
        l->summary_.error = "incident sweep: " + swept.status().ToString();
      }
      ++l->summary_.runs_analysed;
      l->summary_.cases_judged += s.coverage.judged;
      l->summary_.findings += s.findings;
    };
    load->loop_ =
        std::make_unique<server::analysis::AnalysisLoop>(load->analysis_store_.get(), loop_options);
    load->last_analysed_ = NowSeconds();
    load->loop_->Start();
  }
  return load;
}

BackgroundLoad::~BackgroundLoad() {
  stop_ = true;
  if (ingest_.joinable()) ingest_.join();
  if (loop_) loop_->Stop();
}

void BackgroundLoad::Fail(const std::string& error) {
  std::lock_guard<std::mutex> lock(mu_);
  if (summary_.error.empty()) summary_.error = error;
}

void BackgroundLoad::Ingest() {
  std::mt19937 rng(4242);
  const double interval = shape_.cases / options_.ingest_rate;
  double next = NowSeconds();
  for (int64_t k = first_upload_; !stop_; ++k) {
    const int d = static_cast<int>(k % shape_.devices);
    const int night = shape_.nights + static_cast<int>(k / shape_.devices);
    const auto built = Clock::now();
    const v1::RunResult run = NightRun(shape_, options_.samples, d, night, rng);
    const auto t = Clock::now();
    StatusOr<server::UploadedRun> stored = store_->StoreUploadedRun(
        run, "background-" + std::to_string(k), server::Uploader{kUploader, true});
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t).count();
    if (!stored.ok()) {
      Fail("upload: " + stored.status().ToString());
      return;
    }
    if (!stored->created) {
      Fail("upload " + std::to_string(k) + ": stored before (its digest): nothing was ingested");
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++summary_.runs_uploaded;
      summary_.measurements_uploaded += stored->measurements_stored;
      summary_.upload_ms.push_back(ms);
      summary_.build_ms += std::chrono::duration<double, std::milli>(t - built).count();
    }
    next = std::max(next + interval, NowSeconds() - interval);  // no burst after a stall
    while (!stop_ && NowSeconds() < next) {
      std::this_thread::sleep_for(std::chrono::milliseconds(
          std::clamp(static_cast<int>((next - NowSeconds()) * 1000), 1, 50)));
    }
  }
}

BackgroundSummary BackgroundLoad::Stop() {
  stop_ = true;
  if (ingest_.joinable()) ingest_.join();
  const double ingest_end = NowSeconds();
  if (loop_) loop_->Stop();  // finishes the run being analysed
  std::lock_guard<std::mutex> lock(mu_);
  summary_.ingest_seconds = ingest_end - start_seconds_;
  summary_.seconds = NowSeconds() - start_seconds_;
  if (loop_) summary_.analysis_errors = loop_->errors();
  return summary_;
}

}  // namespace warpwatch::bench
