// File: server/store/pg_gpu_health_store.cc
// GPU health reads (each GPU's recent runs with their nights and fleet OUTLIER cases, people's
// marks) and marks, over the tables of migrations 0007, 0014, 0016, 0021 and 0022 (the links
// between a node's GPUs: pg_gpu_health_links.cc).
#include "server/store/pg_gpu_health_store.h"

#include <map>
#include <pqxx/pqxx>
#include <sstream>
#include <string_view>

#include "common/catalog/catalog.h"
#include "server/analysis/counter_plan.h"
#include "server/store/detail/connection_pool.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/gpu_health_links.h"
#include "server/store/detail/pg_store_impl.h"
#include "server/store/detail/transact.h"

namespace warpwatch::server {
namespace {

using gpu_health::GpuHistory;
using gpu_health::TimePoint;

// Summarises, once, every analysed run started since $1 that has no gpu_health_run row yet ($2:
// the node-scoped families, whose runs are node runs, not their GPU's own): its
// night (its schedule run; without one its UTC day and software, the same build), its median SM
// clock and throttled share over its OK cases. (gpu_health_run.families, of migration 0016, is
// left at its default: the subsystems a verdict names come from what the fleet view compared,
// fleet_judged_run.) Confirmation runs are left out as the fleet view leaves them out (they
// measure a night's suspects only), and so are counter jobs' runs (server/analysis/counter_plan.h:
// a judged run's cases measured again with the counter pass, whose replays move clocks and
// times; as a run of its GPU it was one more night).
constexpr const char* kSummariseRuns =
    "INSERT INTO gpu_health_run (run_id, device_uuid, gpu_model, hostname, night, started_at,"
    "  node_run, sm_clock_mhz, throttled_share)"
    " SELECT r.id, r.device_uuid, r.device_name, r.hostname,"
    "  CASE WHEN j.schedule_run_id IS NOT NULL THEN 'schedule:' || j.schedule_run_id"
    "  ELSE 'day:' || to_char(r.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ':' ||"
    "   coalesce(r.labels->>'git_sha', '') || ':' || r.driver_version || ':' ||"
    "   r.cuda_runtime_version || ':' || r.worker_version END,"
    "  r.started_at,"
    "  EXISTS (SELECT 1 FROM measurement m WHERE m.run_id = r.id) AND NOT EXISTS (SELECT 1"
    "   FROM measurement m WHERE m.run_id = r.id AND m.family <> ALL($2::text[])),"
    "  coalesce((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY m.median_sm_clock_mhz)"
    "   FROM measurement m WHERE m.run_id = r.id AND m.status = 'OK'"
    "   AND m.median_sm_clock_mhz > 0), 0),"
    "  coalesce((SELECT avg(CASE WHEN m.throttled_fraction > 0.05 THEN 1.0 ELSE 0.0 END)"
    "   FROM measurement m WHERE m.run_id = r.id AND m.status = 'OK'), 0)"
    " FROM run r LEFT JOIN job j ON j.id = r.job_id"
    " WHERE r.started_at >= 'epoch'::timestamptz + $1::bigint * interval '1 microsecond'"
    "  AND r.state = 'SUCCEEDED' AND r.analysis_state = 'DONE' AND r.device_uuid <> ''"
    "  AND (j.id IS NULL OR (j.confirms_run_id IS NULL"
    "   AND NOT j.labels ? 'warpwatch.counters_for_run'))"
    "  AND NOT EXISTS (SELECT 1 FROM gpu_health_run h WHERE h.run_id = r.id)"
    " ON CONFLICT (run_id) DO NOTHING RETURNING run_id, node_run";

// Each GPU's newest $3 summarised runs since $1 ($2: one GPU or ''), with their night's size
// and medians and what the fleet view compared of them (fleet_judged_run, as it stands now: it
// grows while the night's later runs are analysed), oldest first.
std::string RunsSql() {
  return "WITH mine AS ("
         "  SELECT h.*, row_number() OVER (PARTITION BY h.device_uuid"
         "   ORDER BY h.started_at DESC, h.run_id DESC) AS k"
         "  FROM gpu_health_run h"
         "  WHERE h.started_at >= 'epoch'::timestamptz + $1::bigint * interval '1 microsecond'"
         "   AND ($2 = '' OR h.device_uuid = $2) AND NOT h.node_run),"
         " nights AS ("
         "  SELECT n.night, n.gpu_model, count(DISTINCT n.device_uuid) AS devices,"
         "   coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY n.sm_clock_mhz)"
         "    FILTER (WHERE n.sm_clock_mhz > 0), 0) AS clock,"
         "   percentile_cont(0.5) WITHIN GROUP (ORDER BY n.throttled_share) AS throttled"
         "  FROM gpu_health_run n"
         "  WHERE (n.night, n.gpu_model) IN (SELECT night, gpu_model FROM mine WHERE k <= $3)"
         "   AND NOT n.node_run"
         "  GROUP BY n.night, n.gpu_model)"
         " SELECT m.device_uuid, m.gpu_model, m.hostname, m.run_id, " +
         detail::MicrosSql("m.started_at") +
         ", m.sm_clock_mhz, m.throttled_share, nt.devices,"
         "  nt.clock, nt.throttled, coalesce(f.cases, 0),"
         "  coalesce(array_to_string(f.families, ','), '')"
         " FROM mine m JOIN nights nt ON nt.night = m.night AND nt.gpu_model = m.gpu_model"
         " LEFT JOIN fleet_judged_run f ON f.run_id = m.run_id"
         " WHERE m.k <= $3 ORDER BY m.device_uuid, m.started_at, m.run_id";
}

// The slower fleet OUTLIER cases of those runs that no person dismissed.
constexpr const char* kOutliers =
    "SELECT g.run_id, g.case_canonical, g.family, g.change, coalesce(g.z, 0)"
    " FROM regression g JOIN gpu_health_run h ON h.run_id = g.run_id"
    " WHERE g.kind = 'OUTLIER' AND g.change > 0 AND g.state NOT IN ('DISMISSED', 'NOISE')"
    "  AND h.started_at >= 'epoch'::timestamptz + $1::bigint * interval '1 microsecond'"
    "  AND ($2 = '' OR h.device_uuid = $2)";

static_assert(std::string_view(analysis::kCountersForRunLabel) == "warpwatch.counters_for_run",
              "kSummariseRuns spells the counter jobs' label");

// Registered GPUs, with their worker's hostname.
constexpr const char* kDevices =
    "SELECT d.uuid, d.name, coalesce(w.hostname, ''), d.device_index"
    " FROM device d LEFT JOIN worker w ON w.id = d.worker_id WHERE $1 = '' OR d.uuid = $1";

std::string ActionName(v1::GpuHealthAction action) {
  switch (action) {
    case v1::GPU_HEALTH_ACTION_REPAIRED:
      return "REPAIRED";
    case v1::GPU_HEALTH_ACTION_EXCLUDED:
      return "EXCLUDED";
    case v1::GPU_HEALTH_ACTION_INCLUDED:
      return "INCLUDED";
    default:
      return "";
  }
}

v1::GpuHealthAction ActionFromName(const std::string& name) {
  if (name == "REPAIRED") return v1::GPU_HEALTH_ACTION_REPAIRED;
  if (name == "EXCLUDED") return v1::GPU_HEALTH_ACTION_EXCLUDED;
  if (name == "INCLUDED") return v1::GPU_HEALTH_ACTION_INCLUDED;
  return v1::GPU_HEALTH_ACTION_UNSPECIFIED;
}

std::string NodeScopedFamilies() {
  std::vector<std::string> names;
  for (const catalog::FamilyInfo& f : catalog::Families()) {
    if (f.node_scoped) names.push_back(f.name);
  }
  return detail::TextArrayLiteral(names);
}

TimePoint FromMicros(int64_t micros) { return TimePoint(std::chrono::microseconds(micros)); }

int64_t ToMicros(TimePoint at) {
  return std::chrono::duration_cast<std::chrono::microseconds>(at.time_since_epoch()).count();
}

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// Thread-safe: only the pool is mutable, and it is.
class PgGpuHealthStore : public gpu_health::GpuHealthStore {
 public:
  explicit PgGpuHealthStore(const PgStoreOptions& options)
      : pool_(detail::PoolOptionsFor(options)), node_families_(NodeScopedFamilies()) {}

  StatusOr<std::vector<GpuHistory>> ReadHistories(const gpu_health::HistoryQuery& query) override {
    using Out = std::vector<GpuHistory>;
    const int64_t since = ToMicros(query.since);
    return detail::Transact<Out>(pool_, "ReadGpuHealth", [&](pqxx::work& tx) -> StatusOr<Out> {
      std::vector<int64_t> summarised, node_runs;
      for (const auto& row : tx.exec_params(kSummariseRuns, since, node_families_)) {
        summarised.push_back(row[0].as<int64_t>());
        if (row[1].as<bool>()) node_runs.push_back(row[0].as<int64_t>());
      }
      detail::JudgeNewRunsLinks(tx, summarised);
      detail::JudgeNewNodeRuns(tx, node_runs);
      std::map<std::string, GpuHistory> gpus;
      for (const auto& row : tx.exec_params(kDevices, query.device_uuid)) {
        GpuHistory& g = gpus[row[0].as<std::string>()];
        g.device_uuid = row[0].as<std::string>();
        g.gpu_model = row[1].as<std::string>();
        g.hostname = row[2].as<std::string>();
        g.gpu_index = row[3].as<int>();
      }
      std::map<int64_t, gpu_health::RunSummary*> by_run;
      for (const auto& row : tx.exec_params(RunsSql(), since, query.device_uuid, query.max_runs)) {
        GpuHistory& g = gpus[row[0].as<std::string>()];
        if (g.device_uuid.empty()) {  // known from its runs only (uploaded)
          g.device_uuid = row[0].as<std::string>();
          g.gpu_model = row[1].as<std::string>();
        }
        if (!row[2].as<std::string>().empty()) g.hostname = row[2].as<std::string>();
        gpu_health::RunSummary& run = g.runs.emplace_back();
        run.run_id = row[3].as<int64_t>();
        run.started_at = FromMicros(row[4].as<int64_t>());
        run.sm_clock_mhz = row[5].as<double>();
        run.throttled_share = row[6].as<double>();
        run.night_devices = row[7].as<int>();
        run.night_sm_clock_mhz = row[8].as<double>();
        run.night_throttled_share = row[9].as<double>();
        run.fleet_judged_cases = row[10].as<int>();
        run.fleet_judged_families = SplitCommas(row[11].as<std::string>());
      }
      for (auto& [uuid, g] : gpus) {
        for (gpu_health::RunSummary& run : g.runs) by_run[run.run_id] = &run;
      }
      for (const auto& row : tx.exec_params(kOutliers, since, query.device_uuid)) {
        auto run = by_run.find(row[0].as<int64_t>());
        if (run == by_run.end()) continue;  // older than the GPU's newest max_runs
        run->second->outliers.push_back(
            gpu_health::CaseOutlier{row[1].as<std::string>(), row[2].as<std::string>(),
                                    row[3].as<double>(), row[4].as<double>()});
      }
      detail::LoadLinkEvidence(tx, since, query.device_uuid, by_run);
      detail::LoadSlowPairs(tx, since, query.device_uuid, gpus);
      detail::LoadNodeFindings(tx, since, query.device_uuid, gpus);
      for (const auto& row :
           tx.exec_params("SELECT device_uuid, action, actor, note, " + detail::MicrosSql("at") +
                              " FROM gpu_health_mark WHERE $1 = '' OR device_uuid = $1 ORDER BY id",
                          query.device_uuid)) {
        auto g = gpus.find(row[0].as<std::string>());
        if (g == gpus.end()) continue;  // marked, but no longer registered nor run
        g->second.marks.push_back(
            gpu_health::Mark{ActionFromName(row[1].as<std::string>()), row[2].as<std::string>(),
                             row[3].as<std::string>(), FromMicros(row[4].as<int64_t>())});
      }
      Out out;
      for (auto& [uuid, g] : gpus) out.push_back(std::move(g));
      return out;
    });
  }

  Status AddMark(const std::string& device_uuid, v1::GpuHealthAction action,
                 const std::string& actor, const std::string& note) override {
    const std::string name = ActionName(action);
    if (name.empty()) return InvalidArgumentError("action: unknown");
    StatusOr<bool> r =
        detail::Transact<bool>(pool_, "MarkGpuHealth", [&](pqxx::work& tx) -> StatusOr<bool> {
          const bool known = tx.exec_params(
                                   "SELECT EXISTS (SELECT 1 FROM device WHERE uuid = $1)"
                                   " OR EXISTS (SELECT 1 FROM run WHERE device_uuid = $1)",
                                   device_uuid)
                                 .at(0)
                                 .at(0)
                                 .as<bool>();
          if (!known) {
            return NotFoundError("GPU " + device_uuid +
                                 " is neither registered by a worker nor has a run");
          }
          tx.exec_params(
              "INSERT INTO gpu_health_mark (device_uuid, action, actor, note)"
              " VALUES ($1, $2, $3, $4)",
              device_uuid, name, actor, note);
          if (action == v1::GPU_HEALTH_ACTION_REPAIRED) detail::ForgetGpuLinks(tx, device_uuid);
          return true;
        });
    return r.ok() ? OkStatus() : r.status();
  }

 private:
  detail::ConnectionPool pool_;
  const std::string node_families_;  // text[] literal of the catalog's node-scoped families
};

}  // namespace

StatusOr<std::unique_ptr<gpu_health::GpuHealthStore>> OpenPgGpuHealthStore(
    const PgStoreOptions& options) {
  if (options.url.empty()) return InvalidArgumentError("database url is empty");
  if (options.pool_size < 1) return InvalidArgumentError("pool size must be at least 1");
  return std::unique_ptr<gpu_health::GpuHealthStore>(std::make_unique<PgGpuHealthStore>(options));
}

}  // namespace warpwatch::server
