// interconnect.peer_copy (guide 3.2.9.4, NVIDIA's p2pBandwidthLatencyTest): one copy of `bytes`
// from GPU src to GPU dst per sample. peer_access: cudaMemcpyPeerAsync with peer access enabled
// both ways (the copy engine moves the data over NVLink, or PCIe P2P); staged_host: the path of a
// pair without peer access, device to pinned host memory then host to device, two copies ordered
// by an event. The copy is enqueued on a stream of src's GPU (as p2pBandwidthLatencyTest does),
// forked from and joined to the engine's stream (DeviceHop): the sample is the engine's events
// around it. Latency is the sample at the smallest size (4 bytes).
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
#include "kernels/core/verify.h"
#include "kernels/interconnect/detail/device_hop.h"
#include "kernels/interconnect/detail/peer_access.h"
#include "kernels/interconnect/interconnect_plan.h"
#include "kernels/transfer/host_device/host_device_reference.h"

namespace warpwatch::kernels {
namespace {

using detail::DeviceHop;
using detail::ScopedDevice;

enum class Variant { kPeerAccess, kStagedHost };

const VariantTable<Variant>& Variants() {
  static const auto& table = NewVariantTable<Variant>({
      {"peer_access", Variant::kPeerAccess},
      {"staged_host", Variant::kStagedHost},
  });
  return table;
}

struct Config {
  std::string key;
  Variant variant = Variant::kPeerAccess;
  int src = 0;
  int dst = 1;
  int64_t bytes = 0;
};

class PeerCopyCase : public Case {
 public:
  explicit PeerCopyCase(Config config) : c_(std::move(config)) {}

  ~PeerCopyCase() override {
    if (host_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaFreeHost(host_));
    if (staged_ != nullptr) {
      ScopedDevice on(c_.src);
      CUDA_CHECK_NOEXCEPT(cudaEventDestroy(staged_));
    }
    // Buffers are freed on their own GPU.
    {
      ScopedDevice on(c_.src);
      d_src_ = DeviceBuffer<uint8_t>();
    }
    ScopedDevice on(c_.dst);
    d_dst_ = DeviceBuffer<uint8_t>();
  }

  Status Setup(cudaStream_t stream) override {
    ASSIGN_OR_RETURN(const int home, detail::CurrentDevice());
    const size_t bytes = static_cast<size_t>(c_.bytes);
    if (c_.variant == Variant::kPeerAccess) {
      RETURN_IF_ERROR(detail::EnablePeerAccess(c_.src, c_.dst));
      RETURN_IF_ERROR(detail::EnablePeerAccess(c_.dst, c_.src));
    }
    RETURN_IF_ERROR(src_hop_.Open(c_.src, home));
    RETURN_IF_ERROR(dst_hop_.Open(c_.dst, home));
    {
      ScopedDevice on(c_.src);
      RETURN_IF_ERROR(on.status());
      RETURN_IF_ERROR(d_src_.Allocate(bytes, c_.key + " source on GPU " + std::to_string(c_.src)));
      RETURN_IF_ERROR(FillSeededBytes(d_src_.get(), bytes, kSeed, src_hop_.stream(stream)));
      RETURN_IF_ERROR(src_hop_.Synchronize(stream));
      if (c_.variant == Variant::kStagedHost) {
        CUDA_RETURN_IF_ERROR(cudaEventCreateWithFlags(&staged_, cudaEventDisableTiming));
      }
    }
    ScopedDevice on(c_.dst);
    RETURN_IF_ERROR(on.status());
    RETURN_IF_ERROR(d_dst_.Allocate(bytes, c_.key + " destination on GPU " + std::to_string(c_.dst)));
    if (c_.variant == Variant::kStagedHost) {
      CUDA_RETURN_IF_ERROR(cudaHostAlloc(&host_, bytes, cudaHostAllocPortable));
    }
    return OkStatus();
  }

  // Zeros in dst (SeededByte is never 0) before every run, so a copy that moves nothing fails
  // Verify; waited for here, outside the timed region.
  Status Reset(cudaStream_t stream) override {
    ScopedDevice on(c_.dst);
    RETURN_IF_ERROR(on.status());
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_dst_.get(), 0, d_dst_.bytes(), dst_hop_.stream(stream)));
    return dst_hop_.Synchronize(stream);
  }

  Status Run(cudaStream_t stream) override {
    RETURN_IF_ERROR(src_hop_.Fork(stream));
    cudaStream_t s = src_hop_.stream(stream);
    const size_t bytes = d_dst_.bytes();
    if (c_.variant == Variant::kPeerAccess) {
      CUDA_RETURN_IF_ERROR(
          cudaMemcpyPeerAsync(d_dst_.get(), c_.dst, d_src_.get(), c_.src, bytes, s));
      return src_hop_.Join(stream);
    }
    // Staged: GPU src -> host on src's stream, then host -> GPU dst on dst's stream after it.
    CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(host_, d_src_.get(), bytes, cudaMemcpyDeviceToHost, s));
    CUDA_RETURN_IF_ERROR(cudaEventRecord(staged_, s));
    cudaStream_t d = dst_hop_.stream(stream);
    CUDA_RETURN_IF_ERROR(cudaStreamWaitEvent(d, staged_, 0));
    CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(d_dst_.get(), host_, bytes, cudaMemcpyHostToDevice, d));
    RETURN_IF_ERROR(src_hop_.Join(stream));
    return dst_hop_.Join(stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    VerifyResult failed;
    failed.status = dst_hop_.Synchronize(stream);
    if (!failed.status.ok()) return failed;
    failed.status = src_hop_.Synchronize(stream);
    if (!failed.status.ok()) return failed;
    ScopedDevice on(c_.dst);
    if (!on.status().ok()) {
      failed.status = on.status();
      return failed;
    }
    return VerifyDeviceOutput(d_dst_, HostDeviceReference(static_cast<size_t>(c_.bytes), kSeed),
                              c_.key, dst_hop_.stream(stream));
  }

  LaunchShape Shape() const override { return LaunchShape{}; }  // copy engines, no kernel

  // Bytes that crossed from src to dst once (staged: the same bytes, moved twice).
  Work work() const override {
    Work w;
    w.bytes = static_cast<double>(c_.bytes);
    return w;
  }

 private:
  Config c_;
  DeviceHop src_hop_;
  DeviceHop dst_hop_;
  DeviceBuffer<uint8_t> d_src_;
  DeviceBuffer<uint8_t> d_dst_;
  void* host_ = nullptr;
  cudaEvent_t staged_ = nullptr;  // on src's GPU
};

class PeerCopyFamily : public Family {
 public:
  std::string_view name() const override { return "interconnect.peer_copy"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.variant, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(const int64_t src, AxisValue(point, "src", 0));
    ASSIGN_OR_RETURN(const int64_t dst, AxisValue(point, "dst", 0));
    ASSIGN_OR_RETURN(c.bytes, AxisValue(point, "bytes"));
    c.src = static_cast<int>(src);
    c.dst = static_cast<int>(dst);
    int count = 0;
    CUDA_RETURN_IF_ERROR(cudaGetDeviceCount(&count));
    RETURN_IF_ERROR(CheckPair(c.src, c.dst, count));
    if (c.variant == Variant::kPeerAccess) {
      RETURN_IF_ERROR(detail::CheckPeerPath(c.src, c.dst));
      RETURN_IF_ERROR(detail::CheckPeerPath(c.dst, c.src));
    }
    RETURN_IF_ERROR(CheckDeviceMemory(static_cast<double>(c.bytes), prop));
    return std::unique_ptr<Case>(std::make_unique<PeerCopyCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(PeerCopyFamily);

}  // namespace
}  // namespace warpwatch::kernels
