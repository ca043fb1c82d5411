// File: server/gpu_health/link_check.h
// How the link between two of a node's GPUs, as a run's environment records it
// (RunEnvironment.gpu_links, from NVML), is judged against the best the pair was seen with: a
// lost NVLink, or a pair that fell back to PCIe, is evidence of its own, before any timing moves
// (docs/gpu_health.md, "GPU interconnect"). Pure.
#ifndef WARPWATCH_SERVER_GPU_HEALTH_LINK_CHECK_H_
#define WARPWATCH_SERVER_GPU_HEALTH_LINK_CHECK_H_

#include <string>
#include <string_view>

#include "server/gpu_health/gpu_history.h"

namespace warpwatch::server::gpu_health {

// What joins a pair: nvidia-smi topo -m's word ("NV18", or a PCIe word when no NVLink joins them)
// and the active NVLinks.
struct PairLink {
  std::string path;
  int nvlinks = 0;
};

// The PCIe path words from the nearest to the farthest: PIX 1, PXB 2, PHB 3, NODE 4, SYS 5; 0 for
// any other word ("" = unknown), which is never judged.
int PcieRank(std::string_view word);

// `now` is worse than `reference`: fewer active NVLinks (none included: the pair fell back to
// PCIe); or, with no NVLink on either side, a farther PCIe path (both known).
bool LinkWorse(const PairLink& now, const PairLink& reference);

// The share of the pair's link a loss takes: 1 - nvlinks / reference nvlinks (1: no NVLink left);
// 0 for a farther PCIe path, whose cost the path word does not say.
double LinkLossShare(const LinkLoss& loss);

// "GPU0-GPU1 NV18 -> NV17 (fewer links than seen before; with GPU-1b2c...)": this GPU's index
// first.
std::string DescribeLinkLoss(const LinkLoss& loss);

}  // namespace warpwatch::server::gpu_health

#endif  // WARPWATCH_SERVER_GPU_HEALTH_LINK_CHECK_H_
