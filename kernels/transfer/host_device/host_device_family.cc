// transfer.host_device (guide 3.2.4 page-locked host memory, 5.3.1): variants, axes and the
// transfers on the host-transfer template (kernels/core/host_transfer_case.h).
// What a sample's time covers: from the engine's start event to its end event on the case's
// stream, i.e. the whole host-to-device movement of `bytes`: one cudaMemcpyAsync (pageable: a
// synchronous call in which the driver stages the data through its own pinned buffers, so the
// sample includes that host-side copy; pinned and write-combining: the DMA alone), bytes /
// chunk_bytes cudaMemcpyAsync calls from pinned memory (small_copies: host_synchronous, so every
// call's enqueue is included), or one kernel reading mapped host memory over the link (mapped).
// Host memory is bounded by MaxHostTransferBytes, device memory by the device's.
// On an H100 over PCIe 5 x16 (64 MiB): pageable 11.1 GB/s, pinned 54.7, write-combining 54.7,
// mapped 50.7, 4 KiB small copies 1.6 GB/s (16 MiB: 12.9, 53.4, 53.0, 50.2; 16 KiB copies 5.8).
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/family.h"
#include "kernels/core/host_buffer.h"
#include "kernels/core/host_transfer_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/seeded_values.h"
#include "kernels/core/variant_table.h"
#include "kernels/transfer/host_device/host_device_kernels.h"
#include "kernels/transfer/host_device/host_device_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kPageable, kPinned, kWriteCombining, kMapped, kSmallCopies };

const VariantTable<Variant>& Variants() {
  static const auto& table = NewVariantTable<Variant>({
      {"pageable", Variant::kPageable},
      {"pinned", Variant::kPinned},
      {"write_combining", Variant::kWriteCombining},
      {"mapped", Variant::kMapped},
      {"small_copies", Variant::kSmallCopies},
  });
  return table;
}

HostMemory SourceMemory(Variant v) {
  switch (v) {
    case Variant::kPageable:
      return HostMemory::kPageable;
    case Variant::kWriteCombining:
      return HostMemory::kWriteCombining;
    case Variant::kMapped:
      return HostMemory::kMapped;
    case Variant::kPinned:
    case Variant::kSmallCopies:
      break;
  }
  return HostMemory::kPinned;
}

// The timed region: the whole host-to-device movement of src's bytes into d_dst.
Status Transfer(Variant v, int64_t chunk, unsigned grid, const HostBuffer& src, uint8_t* d_dst,
                cudaStream_t stream) {
  const int64_t bytes = static_cast<int64_t>(src.size());
  switch (v) {
    case Variant::kPageable:
    case Variant::kPinned:
    case Variant::kWriteCombining:
      CUDA_RETURN_IF_ERROR(
          cudaMemcpyAsync(d_dst, src.data(), src.size(), cudaMemcpyHostToDevice, stream));
      return OkStatus();
    case Variant::kSmallCopies:
      for (int64_t offset = 0; offset < bytes; offset += chunk) {
        const size_t len = static_cast<size_t>(std::min(chunk, bytes - offset));
        CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(d_dst + offset, src.data() + offset, len,
                                             cudaMemcpyHostToDevice, stream));
      }
      return OkStatus();
    case Variant::kMapped:
      return LaunchMappedCopy(src.device_pointer(), d_dst, bytes, grid, stream);
  }
  return InternalError("unreachable");
}

size_t PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<size_t>(pages) * static_cast<size_t>(page);
}

class HostDeviceFamily : public Family {
 public:
  std::string_view name() const override { return "transfer.host_device"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Variant variant, LookupVariant(point, Variants()));
    const std::string key = point.Canonical();
    ASSIGN_OR_RETURN(const int64_t bytes, AxisValue(point, "bytes"));
    if (bytes % 16 != 0) return InvalidArgumentError(key + ": bytes must be a multiple of 16");
    int64_t chunk = 0;
    if (variant == Variant::kSmallCopies) {
      ASSIGN_OR_RETURN(chunk, AxisValue(point, "chunk_bytes"));
    }
    const size_t limit = MaxHostTransferBytes(PhysicalMemoryBytes());
    if (static_cast<size_t>(bytes) > limit) {
      return FailedPreconditionError(key + ": " + std::to_string(bytes) +
                                     " bytes of host memory exceed this host's bound (" +
                                     std::to_string(limit) + ": 1/8 of RAM, at most 2 GiB)");
    }
    RETURN_IF_ERROR(CheckDeviceMemory(static_cast<double>(bytes), prop));
    HostTransferSpec s;
    s.key = key;
    s.memory = SourceMemory(variant);
    s.bytes = static_cast<size_t>(bytes);
    unsigned grid = 1;
    if (variant == Variant::kMapped) {
      if (!prop.canMapHostMemory) {
        return FailedPreconditionError(key + ": the device cannot map host memory");
      }
      grid = GridStrideBlocks(bytes / 16, kMappedCopyBlock, 8, prop.multiProcessorCount);
      s.shape.function = MappedCopyKernel();  // the others: copy engines, no kernel of ours
      s.shape.grid = dim3(grid);
      s.shape.block = dim3(kMappedCopyBlock);
    }
    s.fill_host = [](uint8_t* host, size_t n) { FillHostBytes(host, n, kSeed); };
    s.run = [variant, chunk, grid](const HostBuffer& src, uint8_t* d_dst, cudaStream_t stream) {
      return Transfer(variant, chunk, grid, src, d_dst, stream);
    };
    s.reference = [bytes] { return HostDeviceReference(static_cast<size_t>(bytes), kSeed); };
    // A pageable copy returns only once the data has left the caller's buffer. small_copies' many
    // calls could fill the stream's queue behind the engine's blocking kernel, and their enqueue
    // cost is the lesson: its samples include the host's time in every call.
    s.host_synchronous = variant == Variant::kPageable || variant == Variant::kSmallCopies;
    s.work.bytes = static_cast<double>(bytes);  // bytes moved over the host link once
    return MakeHostTransferCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(HostDeviceFamily);

}  // namespace
}  // namespace warpwatch::kernels
