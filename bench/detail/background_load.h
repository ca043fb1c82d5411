// File: bench/detail/background_load.h
// What a server does while its history is read (bench_history_scale --ingest-rate, --analysis):
// new nights of the loaded fleet uploaded at a paced rate through the store's own ingest path,
// and the server's analysis loop (with its incident sweep) judging each uploaded run against the
// loaded history. Both run on their own threads and connections until Stop().
#ifndef WARPWATCH_BENCH_DETAIL_BACKGROUND_LOAD_H_
#define WARPWATCH_BENCH_DETAIL_BACKGROUND_LOAD_H_

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/detail/history_load.h"
#include "common/status/status.h"

namespace warpwatch::server {
class Store;
namespace analysis {
class AnalysisLoop;
class AnalysisStore;
}  // namespace analysis
namespace incidents {
class IncidentStore;
}  // namespace incidents
}  // namespace warpwatch::server

namespace warpwatch::bench {

struct BackgroundOptions {
  // Measurements a second uploaded, as whole runs of `shape.cases` measurements of `samples`
  // samples each (one Store::StoreUploadedRun per run: one transaction, the binary COPY of
  // every measurement); 0 = no ingest. A run is started every cases / rate seconds; when the
  // store falls behind, the next one starts at once (the achieved rate is reported).
  double ingest_rate = 0;
  int samples = 100;
  // The server's AnalysisLoop over the uploaded runs (PENDING when stored), each followed by an
  // incident sweep as server/runtime's on_analysed does.
  bool analysis = false;
};

struct BackgroundSummary {
  double seconds = 0;         // from Start to the end of Stop (the last analysis finished)
  double ingest_seconds = 0;  // from Start to the ingest's end
  int64_t runs_uploaded = 0;
  int64_t measurements_uploaded = 0;
  std::vector<double> upload_ms;  // per uploaded run
  double build_ms = 0;            // building the uploaded runs' measurements, in all
  int64_t runs_analysed = 0;
  int64_t cases_judged = 0;
  int64_t findings = 0;
  int64_t analysis_errors = 0;
  // Per analysed run, its sweep included: the time since the previous run's (the first: since
  // Start). Runs wait throughout when the ingest outpaces the analysis, so these are the runs'
  // own times; the first includes what the loop computes once (the model-wide noise).
  std::vector<double> analysis_ms;
  std::string error;  // the first ingest or sweep error; empty when none
};

// Uploads devices 0, 1, ... of `shape` in turn, night shape.nights, shape.nights + 1, ... (the
// nights after the loaded ones), each case's median near the loaded history's, so the analysis
// judges real series with a year of history. Not copyable; Stop() before destruction.
class BackgroundLoad {
 public:
  static StatusOr<std::unique_ptr<BackgroundLoad>> Start(const std::string& url,
                                                         const HistoryShape& shape,
                                                         const BackgroundOptions& options);
  ~BackgroundLoad();
  BackgroundLoad(const BackgroundLoad&) = delete;
  BackgroundLoad& operator=(const BackgroundLoad&) = delete;

  // Stops and joins both threads (the run being uploaded or analysed is finished first) and
  // returns what they did. Call once.
  BackgroundSummary Stop();

 private:
  BackgroundLoad(const HistoryShape& shape, const BackgroundOptions& options);
  void Ingest();
  void Fail(const std::string& error);

  HistoryShape shape_;
  BackgroundOptions options_;
  std::unique_ptr<server::Store> store_;
  std::unique_ptr<server::analysis::AnalysisStore> analysis_store_;
  std::unique_ptr<server::incidents::IncidentStore> incident_store_;
  std::unique_ptr<server::analysis::AnalysisLoop> loop_;
  std::atomic<bool> stop_{false};
  std::thread ingest_;
  std::mutex mu_;  // guards summary_
  BackgroundSummary summary_;
  double start_seconds_ = 0;
  double last_analysed_ = 0;  // guarded by mu_
  int64_t first_upload_ = 0;  // runs this uploader stored before Start
};

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_BACKGROUND_LOAD_H_
