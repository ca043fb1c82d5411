// The case template for host-to-device transfers (transfer.host_device): a host source buffer of
// the variant's kind (host_buffer.h), written once from the host in Setup, and a device
// destination cleared before every run (outside the timed region, so a transfer that moves nothing
// fails Verify). The timed region moves the bytes however the variant does (one cudaMemcpyAsync,
// many small ones, a kernel reading mapped memory); Verify compares the destination exactly.
#ifndef WARPWATCH_KERNELS_CORE_HOST_TRANSFER_CASE_H_
#define WARPWATCH_KERNELS_CORE_HOST_TRANSFER_CASE_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/status/status.h"
#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/host_buffer.h"
#include "kernels/core/verify.h"

namespace warpwatch::kernels {

// Everything that differs between host-transfer cases. Callbacks run on the case's thread, may
// capture the family's configuration by value, and are not called before Setup.
struct HostTransferSpec {
  std::string key;  // the point's canonical key: names buffers and Verify's messages
  HostMemory memory = HostMemory::kPinned;
  size_t bytes = 0;

  // Writes the source on the host (once, in Setup: write-combining memory is meant for exactly
  // that). Required.
  std::function<void(uint8_t* host, size_t bytes)> fill_host;
  // The timed region: enqueues the whole movement of `bytes` from `src` to d_dst. Required.
  std::function<Status(const HostBuffer& src, uint8_t* d_dst, cudaStream_t stream)> run;
  // The expected destination (`bytes` bytes). Required.
  std::function<std::vector<uint8_t>()> reference;

  // Case::host_synchronous: run waits for the host (pageable copies) or must have its every
  // enqueue in the sample (many small copies).
  bool host_synchronous = false;
  LaunchShape shape;  // of run's kernel; function nullptr for copy-engine transfers
  Work work;          // bytes moved over the host link once
};

class HostTransferCase : public Case {
 public:
  explicit HostTransferCase(HostTransferSpec spec) : s_(std::move(spec)) {}

  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(host_.Allocate(s_.memory, s_.bytes));
    s_.fill_host(host_.data(), s_.bytes);
    RETURN_IF_ERROR(d_dst_.Allocate(s_.bytes, s_.key + " device destination"));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Reset(cudaStream_t stream) override {
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_dst_.get(), 0, d_dst_.bytes(), stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override { return s_.run(host_, d_dst_.get(), stream); }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_dst_, s_.reference(), s_.key, stream);
  }

  LaunchShape Shape() const override { return s_.shape; }
  Work work() const override { return s_.work; }
  bool host_synchronous() const override { return s_.host_synchronous; }

 private:
  HostTransferSpec s_;
  HostBuffer host_;
  DeviceBuffer<uint8_t> d_dst_;
};

// MakeCase's return value for a host-transfer point. INTERNAL when the spec lacks fill_host, run
// or reference.
inline StatusOr<std::unique_ptr<Case>> MakeHostTransferCase(HostTransferSpec spec) {
  if (!spec.fill_host || !spec.run || !spec.reference) {
    return InternalError(spec.key + ": host-transfer spec without fill_host, run or reference");
  }
  return std::unique_ptr<Case>(std::make_unique<HostTransferCase>(std::move(spec)));
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_HOST_TRANSFER_CASE_H_
