// File: server/analysis/analysis_loop.h
// The background thread, one per server replica, that analyses every finished run once: woken by
// the database's NOTIFY when a run finishes, and by a slow timer in case one was missed. Each pass
// first opens the suspects whose confirmation job failed or was cancelled, then claims and
// analyses runs one transaction at a time (AnalysisStore::AnalyzeNextRun + AnalyzeRun), at most
// max_runs_per_pass of them. Replicas share the work through the store's SKIP LOCKED claim.
#ifndef WARPWATCH_SERVER_ANALYSIS_ANALYSIS_LOOP_H_
#define WARPWATCH_SERVER_ANALYSIS_ANALYSIS_LOOP_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>

#include "common/status/status.h"
#include "common/sync/shutdown_signal.h"
#include "server/analysis/analysis_config.h"
#include "server/analysis/analysis_store.h"
#include "server/analysis/night_peers.h"

namespace warpwatch::server::analysis {

// Thread-safe accessors. `store` must outlive the loop.
class AnalysisLoop {
 public:
  // `ready`: passes are skipped while it returns false (the schema is not migrated yet); null =
  // always ready.
  AnalysisLoop(AnalysisStore* store, AnalysisLoopOptions options,
               std::function<bool()> ready = nullptr);
  ~AnalysisLoop();  // Stop()
  AnalysisLoop(const AnalysisLoop&) = delete;
  AnalysisLoop& operator=(const AnalysisLoop&) = delete;

  // Starts the thread; its first pass runs at once (runs that finished while no replica was up
  // are pending). Call once.
  void Start();
  // Wakes and joins the thread: the run being analysed is finished first, the rest of the pass is
  // left for the next start or another replica (at most a few hundred milliseconds more while it
  // waits for a notification). Idempotent.
  void Stop();

  // One pass on the caller's thread (tests, and the thread's body). Returns the runs claimed
  // (analysed or skipped); after Stop() it claims no further run. A run whose analysis failed is
  // counted in errors() and the pass goes on; UNAVAILABLE or ABORTED ends the pass with that error
  // (the run stays pending). Never concurrently with itself (it keeps the night's peers between
  // runs: night_).
  StatusOr<int> RunOnce();

  int64_t analysed() const { return analysed_.load(); }  // runs claimed by this loop
  int64_t errors() const { return errors_.load(); }      // failed analyses and failed passes

 private:
  void Loop();
  // Waits for a NOTIFY, the fallback interval or Stop(); true when stopping.
  bool Wait();

  AnalysisStore* store_;
  const AnalysisLoopOptions options_;
  const std::function<bool()> ready_;
  std::atomic<int64_t> analysed_{0};
  std::atomic<int64_t> errors_{0};
  NightPeerCache night_;  // used by RunOnce only
  ShutdownSignal stop_;  // raised by Stop()
  std::thread thread_;
};

}  // namespace warpwatch::server::analysis

#endif  // WARPWATCH_SERVER_ANALYSIS_ANALYSIS_LOOP_H_
