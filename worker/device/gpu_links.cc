// GPU pairs and their links from NVML observations.
#include "worker/device/gpu_links.h"

#include <algorithm>
#include <iterator>

namespace warpwatch::worker {
namespace {

struct SideCount {
  int direct = 0;    // active links to the other GPU
  int switched = 0;  // active links to NVSwitches
  int version = 0;
};

SideCount CountDirect(const GpuObservation& from, const GpuObservation& to) {
  SideCount c;
  for (const LinkObservation& l : from.links) {
    if (l.active && l.remote == NvLinkRemote::kGpu && l.remote_pci == to.pci) {
      ++c.direct;
      c.version = std::max(c.version, l.version);
    }
  }
  return c;
}

SideCount CountSwitch(const GpuObservation& g) {
  SideCount c;
  for (const LinkObservation& l : g.links) {
    if (l.active && l.remote == NvLinkRemote::kSwitch) {
      ++c.switched;
      c.version = std::max(c.version, l.version);
    }
  }
  return c;
}

}  // namespace

std::string PciePathWord(int level) {
  switch (level) {
    case 0:
      return "X";
    case 10:
      return "PIX";
    case 20:
      return "PXB";
    case 30:
      return "PHB";
    case 40:
      return "NODE";
    case 50:
      return "SYS";
    default:
      return "";
  }
}

int NvLinkGenerationFromNvml(unsigned nvml_version) {
  static constexpr int kGeneration[] = {0, 1, 2, 2, 3, 3, 4, 5, 6};
  return nvml_version < std::size(kGeneration) ? kGeneration[nvml_version] : 0;
}

double NvLinkGbpsPerLink(int generation) {
  if (generation == 1) return 20;
  if (generation >= 2 && generation <= 4) return 25;
  if (generation == 5) return 50;
  return 0;
}

std::vector<v1::GpuLink> JoinGpuLinks(const std::vector<GpuObservation>& gpus,
                                      const std::map<std::pair<int, int>, int>& pcie_levels) {
  std::vector<GpuObservation> sorted = gpus;
  std::sort(sorted.begin(), sorted.end(),
            [](const GpuObservation& a, const GpuObservation& b) { return a.ordinal < b.ordinal; });
  std::vector<v1::GpuLink> out;
  for (size_t i = 0; i < sorted.size(); ++i) {
    for (size_t j = i + 1; j < sorted.size(); ++j) {
      const GpuObservation& a = sorted[i];
      const GpuObservation& b = sorted[j];
      v1::GpuLink link;
      link.set_src(a.ordinal);
      link.set_dst(b.ordinal);
      link.set_src_uuid(a.uuid);
      link.set_dst_uuid(b.uuid);
      auto level = pcie_levels.find({a.ordinal, b.ordinal});
      if (level != pcie_levels.end()) link.set_pcie_path(PciePathWord(level->second));
      int links = 0;
      int version = 0;
      const SideCount direct = CountDirect(a, b);
      if (direct.direct > 0) {
        links = direct.direct;
        version = direct.version;
      } else {
        const SideCount sa = CountSwitch(a);
        const SideCount sb = CountSwitch(b);
        if (sa.switched > 0 && sb.switched > 0) {
          links = std::min(sa.switched, sb.switched);
          version = std::min(sa.version, sb.version);
          link.set_through_nvswitch(true);
        }
      }
      link.set_nvlinks(links);
      if (links > 0) {
        link.set_nvlink_version(version);
        link.set_nvlink_gbps_per_direction(links * NvLinkGbpsPerLink(version));
        link.set_path("NV" + std::to_string(links));
      } else {
        link.set_path(link.pcie_path());
      }
      out.push_back(std::move(link));
    }
  }
  return out;
}

}  // namespace warpwatch::worker
