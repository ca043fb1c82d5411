// File: server/gpu_health/link_check.cc
#include "server/gpu_health/link_check.h"

namespace warpwatch::server::gpu_health {

int PcieRank(std::string_view word) {
  if (word == "PIX") return 1;
  if (word == "PXB") return 2;
  if (word == "PHB") return 3;
  if (word == "NODE") return 4;
  if (word == "SYS") return 5;
  return 0;
}

bool LinkWorse(const PairLink& now, const PairLink& reference) {
  if (now.nvlinks != reference.nvlinks) return now.nvlinks < reference.nvlinks;
  if (now.nvlinks > 0) return false;
  const int now_rank = PcieRank(now.path);
  const int reference_rank = PcieRank(reference.path);
  return now_rank > 0 && reference_rank > 0 && now_rank > reference_rank;
}

double LinkLossShare(const LinkLoss& loss) {
  if (loss.reference_nvlinks <= 0) return 0;
  return 1 - static_cast<double>(loss.nvlinks) / loss.reference_nvlinks;
}

std::string DescribeLinkLoss(const LinkLoss& loss) {
  auto word = [](const std::string& path) { return path.empty() ? std::string("unknown") : path; };
  return "GPU" + std::to_string(loss.gpu_index) + "-GPU" + std::to_string(loss.peer_index) + " " +
         word(loss.reference_path) + " -> " + word(loss.path) + " (fewer links than seen before; with " +
         loss.peer_uuid + ")";
}

}  // namespace warpwatch::server::gpu_health
