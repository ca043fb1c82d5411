// File: server/store/pg_gpu_health_links.cc
// The links between a node's GPUs judged for the health read (migration 0022).
#include <algorithm>
#include <utility>

#include "server/gpu_health/link_check.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/gpu_health_links.h"

namespace warpwatch::server::detail {
namespace {

using gpu_health::PairLink;

// One pair of a run's environment.
struct SeenLink {
  int64_t run_id = 0;
  std::string device_uuid;  // the run's GPU
  std::string src_uuid, dst_uuid;
  int src = 0, dst = 0;
  PairLink link;
};

// The pairs recorded by the runs `$1`, oldest run first (protobuf JSON leaves zeros out).
constexpr const char* kRunLinks =
    "SELECT r.id, r.device_uuid, coalesce(l->>'src_uuid', ''), coalesce(l->>'dst_uuid', ''),"
    "  coalesce((l->>'src')::int, 0), coalesce((l->>'dst')::int, 0), coalesce(l->>'path', ''),"
    "  coalesce((l->>'nvlinks')::int, 0)"
    " FROM run r CROSS JOIN LATERAL jsonb_array_elements(CASE"
    "  WHEN jsonb_typeof(r.environment->'gpu_links') = 'array' THEN r.environment->'gpu_links'"
    "  ELSE '[]'::jsonb END) l"
    " WHERE r.id = ANY($1::bigint[]) ORDER BY r.started_at, r.id";

std::pair<std::string, std::string> PairKey(const SeenLink& s) {
  return s.src_uuid < s.dst_uuid ? std::pair{s.src_uuid, s.dst_uuid}
                                 : std::pair{s.dst_uuid, s.src_uuid};
}

}  // namespace

void JudgeNewRunsLinks(pqxx::work& tx, const std::vector<int64_t>& run_ids) {
  if (run_ids.empty()) return;
  std::vector<SeenLink> seen;
  std::vector<std::string> uuids;
  for (const auto& row : tx.exec_params(kRunLinks, BigintArrayLiteral(run_ids))) {
    SeenLink& s = seen.emplace_back();
    s.run_id = row[0].as<int64_t>();
    s.device_uuid = row[1].as<std::string>();
    s.src_uuid = row[2].as<std::string>();
    s.dst_uuid = row[3].as<std::string>();
    s.src = row[4].as<int>();
    s.dst = row[5].as<int>();
    s.link = PairLink{row[6].as<std::string>(), row[7].as<int>()};
    if (s.src_uuid.empty() || s.dst_uuid.empty() || s.src_uuid == s.dst_uuid) {
      seen.pop_back();  // not a pair we can name
      continue;
    }
    uuids.push_back(s.src_uuid);
    uuids.push_back(s.dst_uuid);
  }
  if (seen.empty()) return;
  std::sort(uuids.begin(), uuids.end());
  uuids.erase(std::unique(uuids.begin(), uuids.end()), uuids.end());
  // The references of every pair these runs saw, locked so that two reads judging runs of one
  // node take turns.
  std::map<std::pair<std::string, std::string>, PairLink> reference;
  for (const auto& row : tx.exec_params(
           "SELECT lo_uuid, hi_uuid, path, nvlinks FROM gpu_pair_link"
           " WHERE lo_uuid = ANY($1::text[]) AND hi_uuid = ANY($1::text[]) FOR UPDATE",
           TextArrayLiteral(uuids))) {
    reference[{row[0].as<std::string>(), row[1].as<std::string>()}] =
        PairLink{row[2].as<std::string>(), row[3].as<int>()};
  }
  std::map<int64_t, int> checked;
  for (const SeenLink& s : seen) {
    const auto key = PairKey(s);
    const bool mine = s.device_uuid == s.src_uuid || s.device_uuid == s.dst_uuid;
    if (mine) checked[s.run_id] += 1;
    auto ref = reference.find(key);
    if (ref == reference.end() || gpu_health::LinkWorse(ref->second, s.link)) {
      reference[key] = s.link;
      tx.exec_params(
          "INSERT INTO gpu_pair_link (lo_uuid, hi_uuid, path, nvlinks, pcie_rank, seen_run_id)"
          " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (lo_uuid, hi_uuid) DO UPDATE SET"
          "  path = EXCLUDED.path, nvlinks = EXCLUDED.nvlinks, pcie_rank = EXCLUDED.pcie_rank,"
          "  seen_run_id = EXCLUDED.seen_run_id"
          // Only better (as LinkWorse): a concurrent read may have set the pair meanwhile.
          " WHERE EXCLUDED.nvlinks > gpu_pair_link.nvlinks OR (EXCLUDED.nvlinks = 0"
          "  AND gpu_pair_link.nvlinks = 0 AND EXCLUDED.pcie_rank > 0"
          "  AND gpu_pair_link.pcie_rank > EXCLUDED.pcie_rank)",
          key.first, key.second, s.link.path, s.link.nvlinks, gpu_health::PcieRank(s.link.path),
          s.run_id);
      continue;
    }
    if (!mine || !gpu_health::LinkWorse(s.link, ref->second)) continue;
    const bool src_is_mine = s.device_uuid == s.src_uuid;
    tx.exec_params(
        "INSERT INTO gpu_health_link_loss (run_id, peer_uuid, gpu_index, peer_index, path,"
        "  nvlinks, reference_path, reference_nvlinks) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        " ON CONFLICT DO NOTHING",
        s.run_id, src_is_mine ? s.dst_uuid : s.src_uuid, src_is_mine ? s.src : s.dst,
        src_is_mine ? s.dst : s.src, s.link.path, s.link.nvlinks, ref->second.path,
        ref->second.nvlinks);
  }
  for (const auto& [run_id, n] : checked) {
    tx.exec_params("UPDATE gpu_health_run SET links_checked = $2 WHERE run_id = $1", run_id, n);
  }
}

void ForgetGpuLinks(pqxx::work& tx, const std::string& device_uuid) {
  tx.exec_params("DELETE FROM gpu_pair_link WHERE lo_uuid = $1 OR hi_uuid = $1", device_uuid);
}

void LoadLinkEvidence(pqxx::work& tx, int64_t since_micros, const std::string& device_uuid,
                      const std::map<int64_t, gpu_health::RunSummary*>& by_run) {
  const char* kRuns =
      "SELECT h.run_id, h.links_checked FROM gpu_health_run h"
      " WHERE h.links_checked > 0"
      "  AND h.started_at >= 'epoch'::timestamptz + $1::bigint * interval '1 microsecond'"
      "  AND ($2 = '' OR h.device_uuid = $2)";
  for (const auto& row : tx.exec_params(kRuns, since_micros, device_uuid)) {
    auto run = by_run.find(row[0].as<int64_t>());
    if (run != by_run.end()) run->second->links_checked = row[1].as<int>();
  }
  const char* kLosses =
      "SELECT l.run_id, l.gpu_index, l.peer_index, l.peer_uuid, l.path, l.nvlinks,"
      "  l.reference_path, l.reference_nvlinks"
      " FROM gpu_health_link_loss l JOIN gpu_health_run h ON h.run_id = l.run_id"
      " WHERE h.started_at >= 'epoch'::timestamptz + $1::bigint * interval '1 microsecond'"
      "  AND ($2 = '' OR h.device_uuid = $2) ORDER BY l.run_id, l.peer_index";
  for (const auto& row : tx.exec_params(kLosses, since_micros, device_uuid)) {
    auto run = by_run.find(row[0].as<int64_t>());
    if (run == by_run.end()) continue;
    gpu_health::LinkLoss& loss = run->second->link_losses.emplace_back();
    loss.gpu_index = row[1].as<int>();
    loss.peer_index = row[2].as<int>();
    loss.peer_uuid = row[3].as<std::string>();
    loss.path = row[4].as<std::string>();
    loss.nvlinks = row[5].as<int>();
    loss.reference_path = row[6].as<std::string>();
    loss.reference_nvlinks = row[7].as<int>();
  }
}

}  // namespace warpwatch::server::detail
