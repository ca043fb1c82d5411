// File: server/store/history_types.h
// The value types of the Store's history, triage and baseline calls (ResultService): filters,
// queries, pages and their size limits, and what UploadRun stored. Kept apart from store.h, the
// interface, which includes this.
#ifndef WARPWATCH_SERVER_STORE_HISTORY_TYPES_H_
#define WARPWATCH_SERVER_STORE_HISTORY_TYPES_H_

#include <google/protobuf/timestamp.pb.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "server/store/paging.h"
#include "warpwatch/v1/baseline.pb.h"
#include "warpwatch/v1/common.pb.h"
#include "warpwatch/v1/measurement.pb.h"
#include "warpwatch/v1/result.pb.h"

namespace warpwatch::server {

// ---- History and triage (ResultService): filters and pages ----

inline constexpr PageSizeLimits kRunPageSizes{50, 1000};
inline constexpr PageSizeLimits kMeasurementPageSizes{100, 1000};
inline constexpr PageSizeLimits kRegressionPageSizes{50, 1000};

// Which runs ListRuns returns. Every set criterion must hold.
struct RunFilter {
  int64_t job_id = 0;                         // 0 = any
  std::string device_uuid;                    // exact
  std::string gpu_model;                      // exact device model
  std::string worker_id;                      // exact
  std::map<std::string, std::string> labels;  // every pair present in the run's labels
  v1::TimeRange started;                      // started_at in [start, end); unset bounds open
  int page_size = 0;                          // EffectivePageSize(page_size, kRunPageSizes)
  std::string page_token;                     // RunPage::next_page_token of the same filters
};

struct RunPage {
  std::vector<v1::Run> runs;    // newest (highest id) first, measurement_count filled
  std::string next_page_token;  // empty on the last page
};

// Which measurements QueryMeasurements returns. Every set criterion must hold.
struct MeasurementQuery {
  int64_t run_id = 0;                     // 0 = any run
  std::string family_glob;                // catalog::GlobMatch semantics ('*', '?'); "" = any
  std::string variant_glob;
  std::map<std::string, int64_t> params;  // a subset of the case's params
  std::string series_id;                  // exact
  bool include_samples = false;           // per-sample arrays; cleared otherwise
  int page_size = 0;                      // EffectivePageSize(page_size, kMeasurementPageSizes)
  std::string page_token;
};

struct MeasurementPage {
  std::vector<v1::Measurement> measurements;  // ascending id (storage order)
  std::string next_page_token;
};

// One case over time on one GPU model, or on one device (device_uuid set).
struct SeriesQuery {
  std::string case_canonical;  // required
  std::string gpu_model;       // required unless device_uuid is set
  std::string device_uuid;
  std::string settings_key;    // series::SettingsKey of the runs' settings; "" = nightly
  v1::TimeRange range;         // on the run's start
  int limit = 400;             // the latest `limit` points, > 0
};

// Which regressions ListRegressions returns. Every set criterion must hold.
struct RegressionFilter {
  std::vector<v1::RegressionState> states;  // any of; empty = all
  std::vector<v1::RegressionKind> kinds;    // any of; empty = all
  std::string gpu_model;
  std::string family;
  std::string device_uuid;
  int64_t run_id = 0;
  int page_size = 0;  // EffectivePageSize(page_size, kRegressionPageSizes)
  std::string page_token;
};

struct RegressionPage {
  std::vector<v1::Regression> regressions;  // newest (highest id) first
  std::string next_page_token;
};

// ---- Pinned baselines (ResultService PinBaseline / UnpinBaseline / ListBaselines) ----

inline constexpr PageSizeLimits kBaselinePageSizes{50, 1000};

// One pin request. A LIST of runs, not one: a schedule run (one run per GPU of a fan-out,
// grouped by job.schedule_run_id) is meant to be pinned by resolving it to its run ids at the RPC
// edge and passing them here as one pin, unpinned as one.
struct BaselinePinRequest {
  std::vector<int64_t> run_ids;  // non-empty unless schedule_run_id is set (duplicates ignored)
  // With a schedule run: its SUCCEEDED runs that have a good point (of series_id, when set) join
  // run_ids, so "pin last night's release run on every GPU" is one pin; its failed or unrelated
  // runs (other GPU models, for a series pin) are left out. NOT_FOUND for an unknown schedule run,
  // FAILED_PRECONDITION when none of its runs qualifies.
  int64_t schedule_run_id = 0;
  std::string series_id;         // "" = every series the runs measured
  std::string note;
  std::string pinned_by;  // the caller's principal
};

// Which pins ListBaselines returns. Every set criterion must hold.
struct BaselineFilter {
  // Pins of exactly this series, and every-series pins with a run that measured it.
  std::string series_id;
  int64_t run_id = 0;  // pins holding this run
  int page_size = 0;   // EffectivePageSize(page_size, kBaselinePageSizes)
  std::string page_token;
};

struct BaselinePage {
  std::vector<v1::BaselinePin> pins;  // newest (highest id) first
  std::string next_page_token;
};

// What UploadRun stored, or found stored before.
// Who uploads a run (UploadRun) and which history it joins (migration 0018).
struct Uploader {
  std::string principal;       // the caller's principal, from its credentials; not empty
  bool fleet_history = false;  // an admin's decision: the fleet's history of the device
};

struct UploadedRun {
  v1::Run run;
  bool created = false;          // false: a run with the same content digest existed
  int64_t measurements_stored = 0;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_HISTORY_TYPES_H_
