// Catalog entries of the node-scoped interconnect families (guide 3.2.9 multi-device system and
// peer-to-peer memory access; nccl-tests): the links between a node's GPUs, not one GPU.
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {
namespace {

// A GPU ordinal within the node. Nightly sweeps 0..7: a node's pairs beyond its GPU count answer
// "not applicable" at no cost (MakeCase, before any allocation), so one nightly plan covers 2-, 4-
// and 8-GPU nodes alike.
AxisInfo OrdinalAxis(std::string name, std::string description) {
  return Axis(std::move(name), std::move(description), {0, 1, 2, 3, 4, 5, 6, 7}, 0, 63);
}

}  // namespace

FamilyInfo InterconnectPeerCopy() {
  FamilyInfo f;
  f.name = "interconnect.peer_copy";
  f.guide_section = "3.2.9.4 peer-to-peer memory copy (p2pBandwidthLatencyTest)";
  f.lesson =
      "with peer access a copy between GPUs crosses NVLink directly; staged through host memory it "
      "is bounded by two PCIe hops";
  f.variants = {
      {"peer_access", "cudaMemcpyPeerAsync with peer access enabled both ways", true, false},
      {"staged_host",
       "device to pinned host memory, then host to device (what a copy without a peer path does)",
       false, false},
  };
  // Nightly: 4 bytes (the latency: p2pBandwidthLatencyTest copies one int) and 64 MiB (the
  // bandwidth, well past the size where a copy engine reaches its rate).
  AxisInfo bytes = Axis("bytes", "bytes copied from src to dst", {4, 1 << 26}, 4,
                        int64_t{1} << 30);
  bytes.multiple_of = 4;
  f.axes = {OrdinalAxis("src", "GPU ordinal copied from"),
            OrdinalAxis("dst", "GPU ordinal copied to"), bytes};
  f.counters = {};
  f.node_scoped = true;
  f.timed_region =
      "the copy between the two GPUs (staged_host: device to host, then host to device), joined "
      "to the engine's stream by cross-device events when src is not the engine's GPU";
  return f;
}

FamilyInfo InterconnectPeerRead() {
  FamilyInfo f;
  f.name = "interconnect.peer_read";
  f.guide_section = "3.2.9.3 peer-to-peer memory access";
  f.lesson =
      "a kernel can load a peer GPU's memory over NVLink, at a fraction of its own memory's "
      "bandwidth";
  f.variants = {
      {"local", "the kernel on dst reads dst's own memory", true, false},
      {"peer", "the kernel on dst reads src's memory through peer access", false, false},
  };
  AxisInfo src = OrdinalAxis("src", "GPU ordinal whose memory the kernel reads");
  src.variants = {"peer"};
  AxisInfo bytes = Axis("bytes", "bytes read by the kernel", {1 << 28}, 1 << 12,
                        int64_t{1} << 30);
  bytes.multiple_of = 1 << 12;
  f.axes = {src, OrdinalAxis("dst", "GPU ordinal running the kernel"), bytes};
  f.counters = {};
  f.node_scoped = true;
  f.timed_region =
      "the reading kernel on dst, joined to the engine's stream by cross-device events when dst "
      "is not the engine's GPU";
  return f;
}

FamilyInfo InterconnectNccl() {
  FamilyInfo f;
  f.name = "interconnect.nccl";
  f.guide_section = "none (NCCL collectives, nccl-tests' algorithm and bus bandwidth)";
  f.lesson =
      "bus bandwidth rises with size to the links' rate; small collectives are latency-bound";
  f.variants = {
      {"all_reduce", "ncclAllReduce (sum, float) over every GPU of the node", true, false},
      {"all_gather", "ncclAllGather (float) over every GPU of the node", false, false},
      {"reduce_scatter", "ncclReduceScatter (sum, float) over every GPU of the node", false,
       false},
  };
  // nccl-tests' -b 8 -e 1G, every factor of 8 nightly (a full -f 2 sweep on request).
  AxisInfo bytes = Axis("bytes", "nccl-tests' size: bytes per rank (all_gather: received, "
                                 "reduce_scatter: sent)",
                        {8, 64, 512, 4096, 32768, 262144, 1 << 21, 1 << 24, 1 << 27, 1 << 30}, 8,
                        int64_t{1} << 30);
  bytes.power_of_two = true;
  f.axes = {bytes};
  f.counters = {};
  f.node_scoped = true;
  f.timed_region =
      "one out-of-place collective on every GPU of the node (ncclGroupStart/End), forked from "
      "and joined to the engine's stream by cross-device events";
  return f;
}

}  // namespace warpwatch::catalog::detail
