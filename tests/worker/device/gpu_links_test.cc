// JoinGpuLinks: NVLink meshes, NVSwitch systems and PCIe-only pairs read as nvidia-smi topo -m
// reads them.
#include "worker/device/gpu_links.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

PciAddress Pci(unsigned bus) { return PciAddress{0, bus, 0}; }

GpuObservation GpuLinksGpu(int ordinal, unsigned bus) {
  GpuObservation g;
  g.ordinal = ordinal;
  g.uuid = "GPU-" + std::to_string(ordinal);
  g.pci = Pci(bus);
  return g;
}

void AddLinks(GpuObservation* g, int n, NvLinkRemote remote, PciAddress to, int version,
              bool active = true) {
  for (int i = 0; i < n; ++i) {
    LinkObservation l;
    l.active = active;
    l.remote = remote;
    l.remote_pci = to;
    l.version = version;
    g->links.push_back(l);
  }
}

TEST(JoinGpuLinksTest, DirectNvLinksAreCountedPerPairWithTheirNominalRate) {
  GpuObservation a = GpuLinksGpu(0, 0x18), b = GpuLinksGpu(1, 0x2a), c = GpuLinksGpu(2, 0x3a);
  AddLinks(&a, 4, NvLinkRemote::kGpu, b.pci, 3);
  AddLinks(&a, 2, NvLinkRemote::kGpu, c.pci, 3);
  AddLinks(&b, 4, NvLinkRemote::kGpu, a.pci, 3);
  AddLinks(&c, 2, NvLinkRemote::kGpu, a.pci, 3);
  const auto links = JoinGpuLinks({c, a, b}, {{{0, 1}, 10}, {{0, 2}, 30}, {{1, 2}, 50}});
  ASSERT_EQ(links.size(), 3u);
  EXPECT_EQ(links[0].src(), 0);
  EXPECT_EQ(links[0].dst(), 1);
  EXPECT_EQ(links[0].path(), "NV4");
  EXPECT_EQ(links[0].nvlinks(), 4);
  EXPECT_EQ(links[0].nvlink_version(), 3);
  EXPECT_DOUBLE_EQ(links[0].nvlink_gbps_per_direction(), 100.0);
  EXPECT_EQ(links[0].pcie_path(), "PIX");
  EXPECT_EQ(links[1].path(), "NV2");
  EXPECT_FALSE(links[1].through_nvswitch());
  // GPUs 1 and 2 share no link: the PCIe path.
  EXPECT_EQ(links[2].path(), "SYS");
  EXPECT_EQ(links[2].nvlinks(), 0);
  EXPECT_DOUBLE_EQ(links[2].nvlink_gbps_per_direction(), 0.0);
}

TEST(JoinGpuLinksTest, NvSwitchPairsTakeTheFewerSwitchLinksOfTheTwo) {
  GpuObservation a = GpuLinksGpu(0, 0x18), b = GpuLinksGpu(1, 0x2a);
  AddLinks(&a, 18, NvLinkRemote::kSwitch, Pci(0xf0), 4);
  AddLinks(&b, 17, NvLinkRemote::kSwitch, Pci(0xf1), 4);
  AddLinks(&b, 1, NvLinkRemote::kSwitch, Pci(0xf1), 4, /*active=*/false);  // a lost link
  const auto links = JoinGpuLinks({a, b}, {{{0, 1}, 50}});
  ASSERT_EQ(links.size(), 1u);
  EXPECT_TRUE(links[0].through_nvswitch());
  EXPECT_EQ(links[0].nvlinks(), 17);
  EXPECT_EQ(links[0].path(), "NV17");
  EXPECT_DOUBLE_EQ(links[0].nvlink_gbps_per_direction(), 17 * 25.0);
  EXPECT_EQ(links[0].pcie_path(), "SYS");
}

TEST(JoinGpuLinksTest, PcieOnlyPairsAndUnknownLevels) {
  const auto links = JoinGpuLinks({GpuLinksGpu(0, 1), GpuLinksGpu(1, 2), GpuLinksGpu(2, 3)},
                                  {{{0, 1}, 20}, {{0, 2}, 40}});
  ASSERT_EQ(links.size(), 3u);
  EXPECT_EQ(links[0].path(), "PXB");
  EXPECT_EQ(links[1].path(), "NODE");
  EXPECT_EQ(links[2].path(), "");  // NVML gave no level for (1, 2)
  EXPECT_TRUE(JoinGpuLinks({GpuLinksGpu(0, 1)}, {}).empty());
}

// The 4-GPU H200 host of 2026-11-27 reported 6 on every link (NVML_NVLINK_VERSION_4_0), which the
// worker first stored as "version 6" with a nominal 0 GB/s.
TEST(NvLinkGbpsPerLinkTest, NvmlsEnumIsReadAsTheGeneration) {
  EXPECT_EQ(NvLinkGenerationFromNvml(6), 4);
  EXPECT_EQ(NvLinkGenerationFromNvml(7), 5);
  EXPECT_EQ(NvLinkGenerationFromNvml(3), 2);
  EXPECT_EQ(NvLinkGenerationFromNvml(5), 3);
  EXPECT_EQ(NvLinkGenerationFromNvml(0), 0);
  EXPECT_EQ(NvLinkGenerationFromNvml(42), 0);
  EXPECT_DOUBLE_EQ(18 * NvLinkGbpsPerLink(NvLinkGenerationFromNvml(6)), 450.0);
}

TEST(NvLinkGbpsPerLinkTest, NominalRatesByVersion) {
  EXPECT_DOUBLE_EQ(NvLinkGbpsPerLink(1), 20.0);
  EXPECT_DOUBLE_EQ(NvLinkGbpsPerLink(4), 25.0);
  EXPECT_DOUBLE_EQ(NvLinkGbpsPerLink(5), 50.0);
  EXPECT_DOUBLE_EQ(NvLinkGbpsPerLink(0), 0.0);
  EXPECT_EQ(PciePathWord(30), "PHB");
  EXPECT_EQ(PciePathWord(7), "");
}

}  // namespace
}  // namespace warpwatch::worker
