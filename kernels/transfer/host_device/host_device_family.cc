// transfer.host_device (guide 3.2.4 page-locked host memory, 5.3.1): the Family/Case classes.
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
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/seeded_values.h"
#include "kernels/core/verify.h"
#include "kernels/transfer/host_device/host_device_kernels.h"
#include "kernels/transfer/host_device/host_device_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kPageable, kPinned, kWriteCombining, kMapped, kSmallCopies };

const std::vector<std::pair<std::string_view, Variant>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, Variant>>{
      {"pageable", Variant::kPageable},
      {"pinned", Variant::kPinned},
      {"write_combining", Variant::kWriteCombining},
      {"mapped", Variant::kMapped},
      {"small_copies", Variant::kSmallCopies},
  };
  return *table;
}

struct Config {
  std::string key;
  Variant variant = Variant::kPinned;
  int64_t bytes = 0;
  int64_t chunk = 0;  // small_copies
  unsigned grid = 1;  // mapped
};

class HostDeviceCase : public Case {
 public:
  explicit HostDeviceCase(Config config) : c_(std::move(config)) {}

  ~HostDeviceCase() override {
    if (host_ != nullptr && c_.variant != Variant::kPageable) {
      CUDA_CHECK_NOEXCEPT(cudaFreeHost(host_));
    }
  }

  Status Setup(cudaStream_t stream) override {
    const size_t bytes = static_cast<size_t>(c_.bytes);
    switch (c_.variant) {
      case Variant::kPageable:
        pageable_.resize(bytes);
        host_ = pageable_.data();
        break;
      case Variant::kPinned:
      case Variant::kSmallCopies:
        CUDA_RETURN_IF_ERROR(cudaHostAlloc(&host_, bytes, cudaHostAllocDefault));
        break;
      case Variant::kWriteCombining:
        CUDA_RETURN_IF_ERROR(cudaHostAlloc(&host_, bytes, cudaHostAllocWriteCombined));
        break;
      case Variant::kMapped:
        CUDA_RETURN_IF_ERROR(cudaHostAlloc(&host_, bytes, cudaHostAllocMapped));
        CUDA_RETURN_IF_ERROR(cudaHostGetDevicePointer(&mapped_, host_, 0));
        break;
    }
    // Written once from the host (write-combining memory is meant for exactly that).
    FillHostBytes(static_cast<uint8_t*>(host_), bytes, kSeed);
    RETURN_IF_ERROR(d_dst_.Allocate(bytes, c_.key + " device destination"));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  // A known non-answer before every run, so a transfer that moves nothing fails Verify.
  Status Reset(cudaStream_t stream) override {
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_dst_.get(), 0, d_dst_.bytes(), stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    switch (c_.variant) {
      case Variant::kPageable:
      case Variant::kPinned:
      case Variant::kWriteCombining:
        CUDA_RETURN_IF_ERROR(
            cudaMemcpyAsync(d_dst_.get(), host_, d_dst_.bytes(), cudaMemcpyHostToDevice, stream));
        return OkStatus();
      case Variant::kSmallCopies: {
        const auto* src = static_cast<const uint8_t*>(host_);
        for (int64_t offset = 0; offset < c_.bytes; offset += c_.chunk) {
          const size_t len = static_cast<size_t>(std::min(c_.chunk, c_.bytes - offset));
          CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(d_dst_.get() + offset, src + offset, len,
                                               cudaMemcpyHostToDevice, stream));
        }
        return OkStatus();
      }
      case Variant::kMapped:
        return LaunchMappedCopy(mapped_, d_dst_.get(), c_.bytes, c_.grid, stream);
    }
    return InternalError("unreachable");
  }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_dst_, HostDeviceReference(static_cast<size_t>(c_.bytes), kSeed),
                              c_.key, stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    if (c_.variant != Variant::kMapped) return shape;  // copy engines, no kernel of ours
    shape.function = MappedCopyKernel();
    shape.grid = dim3(c_.grid);
    shape.block = dim3(kMappedCopyBlock);
    return shape;
  }

  // Bytes moved over the host link once.
  Work work() const override {
    Work w;
    w.bytes = static_cast<double>(c_.bytes);
    return w;
  }

  // A pageable copy returns only once the data has left the caller's buffer. small_copies' many
  // calls could fill the stream's queue behind the engine's blocking kernel, and their enqueue
  // cost is the lesson: its samples include the host's time in every call.
  bool host_synchronous() const override {
    return c_.variant == Variant::kPageable || c_.variant == Variant::kSmallCopies;
  }

 private:
  Config c_;
  std::vector<uint8_t> pageable_;
  void* host_ = nullptr;
  void* mapped_ = nullptr;
  DeviceBuffer<uint8_t> d_dst_;
};

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
    Config c;
    ASSIGN_OR_RETURN(c.variant, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.bytes, AxisValue(point, "bytes"));
    if (c.bytes % 16 != 0) {
      return InvalidArgumentError(c.key + ": bytes must be a multiple of 16");
    }
    if (c.variant == Variant::kSmallCopies) {
      ASSIGN_OR_RETURN(c.chunk, AxisValue(point, "chunk_bytes"));
    }
    const size_t limit = MaxHostTransferBytes(PhysicalMemoryBytes());
    if (static_cast<size_t>(c.bytes) > limit) {
      return FailedPreconditionError(c.key + ": " + std::to_string(c.bytes) +
                                     " bytes of host memory exceed this host's bound (" +
                                     std::to_string(limit) + ": 1/8 of RAM, at most 2 GiB)");
    }
    RETURN_IF_ERROR(CheckDeviceMemory(static_cast<double>(c.bytes), prop));
    if (c.variant == Variant::kMapped) {
      if (!prop.canMapHostMemory) {
        return FailedPreconditionError(c.key + ": the device cannot map host memory");
      }
      c.grid = GridStrideBlocks(c.bytes / 16, kMappedCopyBlock, 8, prop.multiProcessorCount);
    }
    return std::unique_ptr<Case>(std::make_unique<HostDeviceCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(HostDeviceFamily);

}  // namespace
}  // namespace warpwatch::kernels
