// interconnect.peer_read (guide 3.2.9.3 peer-to-peer memory access): a kernel on GPU dst sums
// `bytes` of memory into one checksum; `local` reads dst's own memory, `peer` reads GPU src's
// through peer access (loads over NVLink, or PCIe P2P). Work counts the bytes read; the kernel
// writes one word per warp. The kernel runs on a stream of dst's GPU, forked from and joined to the
// engine's stream (DeviceHop); its occupancy is reported only when dst is the engine's GPU (the
// engine's occupancy and counter passes see that GPU only).
#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/variant_table.h"
#include "kernels/core/seeded_fill.h"
#include "kernels/core/seeded_values.h"
#include "kernels/interconnect/detail/device_hop.h"
#include "kernels/interconnect/detail/peer_access.h"
#include "kernels/interconnect/interconnect_plan.h"
#include "kernels/interconnect/peer_read/peer_read_kernels.h"

namespace warpwatch::kernels {
namespace {

using detail::DeviceHop;
using detail::ScopedDevice;

enum class Variant { kLocal, kPeer };

const VariantTable<Variant>& Variants() {
  static const auto& table = NewVariantTable<Variant>({
      {"local", Variant::kLocal},
      {"peer", Variant::kPeer},
  });
  return table;
}

// Seeded words are SeededInt(seed, i, kMaxWord) (FillSeededInts), never zero.
constexpr int kMaxWord = 1 << 30;

struct Config {
  std::string key;
  Variant variant = Variant::kLocal;
  int src = 0;  // owner of the memory read (== dst for local)
  int dst = 0;  // runs the kernel
  int64_t bytes = 0;
  unsigned grid = 1;
};

class PeerReadCase : public Case {
 public:
  explicit PeerReadCase(Config config) : c_(std::move(config)) {}

  ~PeerReadCase() override {
    {
      ScopedDevice on(c_.src);
      d_words_ = DeviceBuffer<int>();
    }
    ScopedDevice on(c_.dst);
    d_sum_ = DeviceBuffer<uint32_t>();
  }

  Status Setup(cudaStream_t /*stream*/) override {
    ASSIGN_OR_RETURN(home_, detail::CurrentDevice());
    if (c_.variant == Variant::kPeer) RETURN_IF_ERROR(detail::EnablePeerAccess(c_.dst, c_.src));
    RETURN_IF_ERROR(hop_.Open(c_.dst, home_));
    const size_t words = static_cast<size_t>(c_.bytes / 4);
    {
      ScopedDevice on(c_.src);
      RETURN_IF_ERROR(on.status());
      RETURN_IF_ERROR(d_words_.Allocate(words, c_.key + " words on GPU " + std::to_string(c_.src)));
      RETURN_IF_ERROR(FillSeededInts(d_words_.get(), words, kSeed, kMaxWord, nullptr));
      CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(nullptr));
    }
    ScopedDevice on(c_.dst);
    RETURN_IF_ERROR(on.status());
    RETURN_IF_ERROR(d_sum_.Allocate(1, c_.key + " checksum"));
    expected_ = 0;
    for (size_t i = 0; i < words; ++i) {
      expected_ += static_cast<uint32_t>(SeededInt(kSeed, i, kMaxWord));
    }
    return OkStatus();
  }

  Status Reset(cudaStream_t stream) override {
    ScopedDevice on(c_.dst);
    RETURN_IF_ERROR(on.status());
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_sum_.get(), 0, sizeof(uint32_t), hop_.stream(stream)));
    return hop_.Synchronize(stream);
  }

  Status Run(cudaStream_t stream) override {
    RETURN_IF_ERROR(hop_.Fork(stream));
    {
      ScopedDevice on(c_.dst);
      RETURN_IF_ERROR(on.status());
      RETURN_IF_ERROR(LaunchPeerRead(reinterpret_cast<const uint32_t*>(d_words_.get()),
                                     c_.bytes / 4, d_sum_.get(), c_.grid, hop_.stream(stream)));
    }
    return hop_.Join(stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    VerifyResult r;
    r.status = hop_.Synchronize(stream);
    if (!r.status.ok()) return r;
    ScopedDevice on(c_.dst);
    StatusOr<std::vector<uint32_t>> got = d_sum_.CopyToHost();
    if (!got.ok()) {
      r.status = got.status();
      return r;
    }
    if ((*got)[0] != expected_) {
      r.status = InternalError(c_.key + ": checksum of the words read is " +
                               std::to_string((*got)[0]) + ", expected " +
                               std::to_string(expected_));
      r.max_error = 1;
    }
    return r;
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    if (c_.dst != home_) return shape;  // another GPU's kernel: no occupancy from the engine's
    shape.function = PeerReadKernel();
    shape.grid = dim3(c_.grid);
    shape.block = dim3(kPeerReadBlock);
    return shape;
  }

  Work work() const override {
    Work w;
    w.bytes = static_cast<double>(c_.bytes);
    w.flops = static_cast<double>(c_.bytes / 4);  // one add per word
    return w;
  }

 private:
  Config c_;
  int home_ = -1;
  DeviceHop hop_;
  DeviceBuffer<int> d_words_;      // on src
  DeviceBuffer<uint32_t> d_sum_;   // on dst
  uint32_t expected_ = 0;
};

class PeerReadFamily : public Family {
 public:
  std::string_view name() const override { return "interconnect.peer_read"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.variant, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(const int64_t dst, AxisValue(point, "dst", 0));
    ASSIGN_OR_RETURN(c.bytes, AxisValue(point, "bytes"));
    c.dst = static_cast<int>(dst);
    c.src = c.dst;
    int count = 0;
    CUDA_RETURN_IF_ERROR(cudaGetDeviceCount(&count));
    if (c.variant == Variant::kPeer) {
      ASSIGN_OR_RETURN(const int64_t src, AxisValue(point, "src", 0));
      c.src = static_cast<int>(src);
      RETURN_IF_ERROR(CheckPair(c.src, c.dst, count));
      RETURN_IF_ERROR(detail::CheckPeerPath(c.dst, c.src));
    } else {
      // The local read is the pair's ceiling: measured on every GPU of a multi-GPU node only.
      RETURN_IF_ERROR(CheckMultiGpu(count));
      if (c.dst >= count) {
        return FailedPreconditionError(std::string(kNotApplicable) + "GPU " +
                                       std::to_string(c.dst) + " is beyond this node's " +
                                       std::to_string(count) + " GPUs");
      }
    }
    if (c.bytes % 16 != 0) return InvalidArgumentError(c.key + ": bytes must be a multiple of 16");
    RETURN_IF_ERROR(CheckDeviceMemory(static_cast<double>(c.bytes), prop));
    c.grid = GridStrideBlocks(c.bytes / 16, kPeerReadBlock, 8, prop.multiProcessorCount);
    return std::unique_ptr<Case>(std::make_unique<PeerReadCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(PeerReadFamily);

}  // namespace
}  // namespace warpwatch::kernels
