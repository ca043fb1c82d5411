// File: server/store/pg_gpu_health_pairs.cc
// A node run's GPU pairs compared with the node's other pairs for the health read (migration
// 0022, server/gpu_health/pair_check.h), and the node runs' cases that stand slower than their
// own history (collectives, pairs).
#include <algorithm>
#include <chrono>
#include <sstream>
#include <string>
#include <utility>

#include "server/gpu_health/pair_check.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/gpu_health_links.h"

namespace warpwatch::server::detail {
namespace {

// The link of run `r`'s gpu_links joining measurement `m`'s `src` and `dst` (either order) as
// `l` (null when none: a case without the two axes, or a pair the links do not name).
constexpr const char* kPairLinkJoin =
    " LEFT JOIN LATERAL (SELECT e FROM jsonb_array_elements(CASE"
    "   WHEN jsonb_typeof(r.environment->'gpu_links') = 'array' THEN r.environment->'gpu_links'"
    "   ELSE '[]'::jsonb END) e"
    "  WHERE least(coalesce((e->>'src')::int, 0), coalesce((e->>'dst')::int, 0)) ="
    "    least((m.params->>'src')::int, (m.params->>'dst')::int)"
    "   AND greatest(coalesce((e->>'src')::int, 0), coalesce((e->>'dst')::int, 0)) ="
    "    greatest((m.params->>'src')::int, (m.params->>'dst')::int)) x(l) ON true";

// The OK points of the runs $1 whose case has a pair (src and dst axes), with the case less its
// pair as the group, and each pair's path and GPUs from the run's gpu_links (either order).
const std::string kPairPoints =
    std::string(
        "SELECT m.run_id, m.case_canonical, m.family,"
        "  m.family || '/' || m.variant || ' ' || (m.params - 'src' - 'dst')::text,"
        "  (m.params->>'src')::int, (m.params->>'dst')::int,"
        "  coalesce((m.params->>'bytes')::bigint, 0), m.median_seconds,"
        "  coalesce(l->>'path', ''), coalesce(l->>'src_uuid', ''), coalesce(l->>'dst_uuid', ''),"
        "  coalesce((l->>'src')::int, 0)"
        " FROM measurement m JOIN run r ON r.id = m.run_id") +
    kPairLinkJoin +
    " WHERE m.run_id = ANY($1::bigint[]) AND m.status = 'OK'"
    "  AND m.params ? 'src' AND m.params ? 'dst' AND m.median_seconds > 0";

struct RunPairs {
  std::vector<gpu_health::PairPoint> points;
  std::map<std::string, std::string> family;  // case -> family
  std::map<int, std::string> uuid;            // CUDA ordinal -> GPU uuid
};

// The newest own run of GPU `uuid` (of `gpus`) started at most a day before a node run started at
// `at` (epoch microseconds): the run a node run's evidence counts on; null when it has none.
gpu_health::RunSummary* OwnRunOfNodeRun(std::map<std::string, gpu_health::GpuHistory>& gpus,
                                        const std::string& uuid, int64_t at) {
  constexpr int64_t kDayMicros = int64_t{24} * 3600 * 1000000;
  auto g = gpus.find(uuid);
  if (g == gpus.end()) return nullptr;
  gpu_health::RunSummary* own = nullptr;
  for (gpu_health::RunSummary& run : g->second.runs) {  // oldest first
    const int64_t started =
        std::chrono::duration_cast<std::chrono::microseconds>(run.started_at.time_since_epoch())
            .count();
    if (started <= at && at - started <= kDayMicros) own = &run;
  }
  return own;
}

// The node runs at a standing finding's level: the finding, its case and family, the run's change
// and z against the finding's baseline, when it started, the GPUs its gpu_links name
// (comma-separated), and for a pair case (`src`, `dst` axes; -1 otherwise) its ordinals and the
// link joining them (either order) with the link's uuids and `src`. A finding's run rows name the
// measurement of its series in that run, whose `bytes` axis is the case's size.
const std::string kNodeFindingRuns =
    std::string(
        "SELECT g.id, g.case_canonical, g.family, rr.change, coalesce(rr.z, 0), "
        "  coalesce((extract(epoch from h.started_at) * 1000000)::bigint, 0),"
        "  coalesce((SELECT string_agg(DISTINCT v.u, ',') FROM jsonb_array_elements(CASE"
        "    WHEN jsonb_typeof(r.environment->'gpu_links') = 'array' THEN "
        "r.environment->'gpu_links'"
        "    ELSE '[]'::jsonb END) e CROSS JOIN LATERAL (VALUES (e->>'src_uuid'), (e->>'dst_uuid'))"
        "    v(u) WHERE coalesce(v.u, '') <> ''), ''),"
        "  coalesce((m.params->>'src')::int, -1), coalesce((m.params->>'dst')::int, -1),"
        "  coalesce(l->>'src_uuid', ''), coalesce(l->>'dst_uuid', ''), coalesce((l->>'src')::int, "
        "0)"
        " FROM regression g JOIN regression_run rr ON rr.regression_id = g.id"
        " JOIN gpu_health_run h ON h.run_id = rr.run_id AND h.node_run"
        " JOIN run r ON r.id = rr.run_id"
        " JOIN measurement m ON m.run_id = rr.run_id AND m.id = rr.measurement_id") +
    kPairLinkJoin +
    " WHERE g.kind = 'REGRESSION' AND g.state IN ('OPEN', 'ACKNOWLEDGED')"
    "  AND h.started_at >= 'epoch'::timestamptz + $1::bigint * interval '1 microsecond'"
    "  AND coalesce((m.params->>'bytes')::bigint, 0) >= 1048576";

}  // namespace

void JudgeNewNodeRuns(pqxx::work& tx, const std::vector<int64_t>& run_ids) {
  if (run_ids.empty()) return;
  std::map<int64_t, RunPairs> runs;
  for (const auto& row : tx.exec_params(kPairPoints, BigintArrayLiteral(run_ids))) {
    RunPairs& r = runs[row[0].as<int64_t>()];
    gpu_health::PairPoint& p = r.points.emplace_back();
    p.case_key = row[1].as<std::string>();
    r.family[p.case_key] = row[2].as<std::string>();
    p.group = row[3].as<std::string>();
    p.src = row[4].as<int>();
    p.dst = row[5].as<int>();
    p.bytes = row[6].as<int64_t>();
    p.median_seconds = row[7].as<double>();
    p.path = row[8].as<std::string>();
    if (!row[9].as<std::string>().empty()) {
      const int link_src = row[11].as<int>();
      const int link_dst = link_src == p.src ? p.dst : p.src;
      r.uuid[link_src] = row[9].as<std::string>();
      r.uuid[link_dst] = row[10].as<std::string>();
    }
  }
  for (const auto& [run_id, r] : runs) {
    for (const gpu_health::SlowPair& s : gpu_health::FindSlowPairs(r.points, {})) {
      auto src = r.uuid.find(s.src), dst = r.uuid.find(s.dst);
      if (src == r.uuid.end() || dst == r.uuid.end()) continue;  // GPUs we cannot name
      tx.exec_params(
          "INSERT INTO gpu_health_pair_slow (run_id, case_canonical, family, src_uuid,"
          "  dst_uuid, src_index, dst_index, path, change, z, peers)"
          " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING",
          run_id, s.case_key, r.family.at(s.case_key), src->second, dst->second, s.src, s.dst,
          s.path, s.change, s.z, s.peers);
    }
  }
}

void LoadSlowPairs(pqxx::work& tx, int64_t since_micros, const std::string& device_uuid,
                   std::map<std::string, gpu_health::GpuHistory>& gpus) {
  const std::string sql =
      "SELECT p.case_canonical, p.family, p.src_uuid, p.dst_uuid, p.src_index, p.dst_index,"
      "  p.path, p.change, p.z, p.peers, " +
      MicrosSql("h.started_at") +
      " FROM gpu_health_pair_slow p JOIN gpu_health_run h ON h.run_id = p.run_id"
      " WHERE h.started_at >= 'epoch'::timestamptz + $1::bigint * interval '1 microsecond'"
      "  AND ($2 = '' OR p.src_uuid = $2 OR p.dst_uuid = $2)";
  for (const auto& row : tx.exec_params(sql, since_micros, device_uuid)) {
    gpu_health::SlowPair s;
    s.case_key = row[0].as<std::string>();
    s.src = row[4].as<int>();
    s.dst = row[5].as<int>();
    s.path = row[6].as<std::string>();
    s.change = row[7].as<double>();
    s.z = row[8].as<double>();
    s.peers = row[9].as<int>();
    const int64_t at = row[10].as<int64_t>();
    for (const std::string& uuid : {row[2].as<std::string>(), row[3].as<std::string>()}) {
      if (!device_uuid.empty() && uuid != device_uuid) continue;
      gpu_health::RunSummary* own = OwnRunOfNodeRun(gpus, uuid, at);
      if (own == nullptr) continue;
      own->slow_pairs.push_back(gpu_health::CaseOutlier{gpu_health::DescribeSlowPair(s),
                                                        row[1].as<std::string>(), s.change, s.z});
    }
  }
}

void LoadNodeFindings(pqxx::work& tx, int64_t since_micros, const std::string& device_uuid,
                      std::map<std::string, gpu_health::GpuHistory>& gpus) {
  for (const auto& row : tx.exec_params(kNodeFindingRuns, since_micros)) {
    const double change = row[3].as<double>();
    const int64_t finding = row[0].as<int64_t>();
    const int src = row[7].as<int>(), dst = row[8].as<int>();
    std::vector<std::string> counted;  // the GPUs it counts on
    std::string text;
    if (src >= 0 && dst >= 0) {  // a pair case: its two GPUs, named by the link joining them
      if (row[9].as<std::string>().empty()) continue;  // GPUs we cannot name
      const bool link_forward = row[11].as<int>() == src;
      counted = {row[link_forward ? 9 : 10].as<std::string>(),
                 row[link_forward ? 10 : 9].as<std::string>()};
      text = gpu_health::DescribePairSlowerThanHistory(row[1].as<std::string>(), src, dst, change,
                                                       finding);
    } else {  // a collective: the node's every GPU
      std::stringstream list(row[6].as<std::string>());
      for (std::string uuid; std::getline(list, uuid, ',');) counted.push_back(uuid);
      text = gpu_health::DescribeSlowCollective(row[1].as<std::string>(), change,
                                                static_cast<int>(counted.size()), finding);
    }
    for (const std::string& uuid : counted) {
      if (!device_uuid.empty() && uuid != device_uuid) continue;
      gpu_health::RunSummary* own = OwnRunOfNodeRun(gpus, uuid, row[5].as<int64_t>());
      if (own == nullptr) continue;
      own->slower_than_history.push_back(
          gpu_health::CaseOutlier{text, row[2].as<std::string>(), change, row[4].as<double>()});
    }
  }
}

}  // namespace warpwatch::server::detail
