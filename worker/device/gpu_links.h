// Pairs of a node's GPUs and what joins them (RunEnvironment.gpu_links), from what NVML reports
// per GPU and per link. CUDA- and NVML-free: nvml_topology.h gathers the observations.
#ifndef WARPWATCH_WORKER_DEVICE_GPU_LINKS_H_
#define WARPWATCH_WORKER_DEVICE_GPU_LINKS_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::worker {

struct PciAddress {
  unsigned domain = 0;
  unsigned bus = 0;
  unsigned device = 0;
  bool operator==(const PciAddress& o) const {
    return domain == o.domain && bus == o.bus && device == o.device;
  }
};

// NVML's nvmlIntNvLinkDeviceType_t.
enum class NvLinkRemote { kGpu = 0, kIbmNpu = 1, kSwitch = 2, kUnknown = 0xFF };

// One NVLink of a GPU, as NVML reported it.
struct LinkObservation {
  bool active = false;
  NvLinkRemote remote = NvLinkRemote::kUnknown;
  PciAddress remote_pci;  // the far end (a GPU's address when remote == kGpu)
  int version = 0;        // NVLink generation (NvLinkGenerationFromNvml), 0 unknown
};

struct GpuObservation {
  int ordinal = 0;        // CUDA ordinal in the run's process
  std::string uuid;
  PciAddress pci;
  std::vector<LinkObservation> links;
};

// NVML's nvmlGpuTopologyLevel_t as nvidia-smi topo -m names it: 0 "X" (the same board), 10
// "PIX", 20 "PXB", 30 "PHB", 40 "NODE", 50 "SYS"; "" for anything else.
std::string PciePathWord(int nvml_topology_level);

// nvmlDeviceGetNvLinkVersion returns the enum nvmlNvlinkVersion_t, not the generation:
// 1 = 1.0, 2 = 2.0, 3 = 2.2, 4 = 3.0, 5 = 3.1, 6 = 4.0 (Hopper), 7 = 5.0 (Blackwell), 8 = 6.0.
// The NVLink generation it names (1..6); 0 for INVALID or a value this table does not know.
int NvLinkGenerationFromNvml(unsigned nvml_version);

// Nominal NVLink rate per link and direction, GB/s, by generation: 1: 20, 2-4: 25, 5: 50;
// 0 when unknown (6 included: not a rate we have measured or seen published per link).
double NvLinkGbpsPerLink(int generation);

// One GpuLink per unordered pair (src < dst, ordered by src then dst). NVLinks are counted from
// src's side: links whose remote is dst's PCI address; when neither GPU has a direct link to the
// other but both have active links to NVSwitches, the pair's links are the fewer of the two
// GPUs' switch links (through_nvswitch). `pcie_levels` holds NVML's common-ancestor level per
// pair (key (src, dst), src < dst); a pair without NVLink takes its path word from it.
std::vector<v1::GpuLink> JoinGpuLinks(const std::vector<GpuObservation>& gpus,
                                      const std::map<std::pair<int, int>, int>& pcie_levels);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DEVICE_GPU_LINKS_H_
