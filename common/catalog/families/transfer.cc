// Catalog entry of transfer.host_device (guide 3.2.4 page-locked host memory, 5.3.1).
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {

// The timed region is cudaMemcpyAsync host to device: no kernel of ours, so no counter beyond the
// catalog-wide one (reported absent). The unit here is bytes, hence `bytes` rather than `n`.
FamilyInfo TransferHostDevice() {
  FamilyInfo f;
  f.name = "transfer.host_device";
  f.guide_section = "3.2.4 page-locked host memory, 5.3.1 data transfer between host and device";
  f.lesson = "pinned and batched transfers approach the link's bandwidth";
  f.variants = {
      {"pageable", "one copy from malloc'd host memory (staged by the driver)", false, false},
      {"pinned", "one copy from cudaMallocHost memory", /*recommended=*/true, false},
      {"write_combining", "one copy from cudaHostAllocWriteCombined memory", false, false},
      {"mapped", "a kernel reading cudaHostAllocMapped memory over the link (zero copy)", false,
       false},
      {"small_copies", "the same bytes from pinned memory as copies of chunk_bytes each", false,
       false},
  };
  // Nightly: 16 MiB, large enough for pinned copies to approach the link's bandwidth, small
  // enough that small_copies' 1024 calls per sample stay within a second of the suite.
  AxisInfo bytes = Axis("bytes", "bytes moved host to device", {1 << 24}, 1024,
                        int64_t{1} << 31);
  bytes.multiple_of = 1024;
  AxisInfo chunk = Axis("chunk_bytes", "bytes per copy of small_copies", {16384}, 256, 1 << 20);
  chunk.multiple_of = 256;
  chunk.variants = {"small_copies"};
  f.axes = {bytes, chunk};
  f.counters = {};
  f.timed_region =
      "the host-to-device copies (the mapped variant: its kernel reading host memory over the link)";
  return f;
}

}  // namespace warpwatch::catalog::detail
