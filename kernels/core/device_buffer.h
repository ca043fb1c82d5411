// DeviceBuffer<T>: RAII owner of one cudaMalloc'd array. Allocation failures for lack of memory are
// FAILED_PRECONDITION (the point is impossible on this device), never a crash.
#ifndef WARPWATCH_KERNELS_CORE_DEVICE_BUFFER_H_
#define WARPWATCH_KERNELS_CORE_DEVICE_BUFFER_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "common/status/status.h"
#include "kernels/core/cuda_check.h"

namespace warpwatch::kernels {

// Allocates `bytes` of device memory into *ptr. FAILED_PRECONDITION (with the sizes in the message)
// when the device has not that much free memory; INTERNAL on other CUDA errors. Clears the
// runtime's last error after a failed allocation so later launch checks do not see it.
Status AllocateDeviceBytes(size_t bytes, const std::string& what, void** ptr);

// Frees memory from AllocateDeviceBytes; logs (never throws) on error. nullptr is a no-op.
void FreeDeviceBytes(void* ptr) noexcept;

// Owns `size()` elements of T in device memory (uninitialised after Allocate). Move-only. Not
// thread-safe. cudaMalloc alignment (256 bytes) makes every buffer fit vector loads up to 16 bytes.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer() { Free(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      Free();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }

  // Replaces the contents with `count` uninitialised elements; `what` names the buffer in errors.
  Status Allocate(size_t count, const std::string& what) {
    Free();
    void* p = nullptr;
    RETURN_IF_ERROR(AllocateDeviceBytes(count * sizeof(T), what, &p));
    data_ = static_cast<T*>(p);
    size_ = count;
    return OkStatus();
  }

  // Synchronous upload of a host array of exactly size() elements (Setup only, never timed).
  Status CopyFromHost(const std::vector<T>& host) {
    if (host.size() != size_) return InternalError("CopyFromHost: size mismatch");
    CUDA_RETURN_IF_ERROR(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
    return OkStatus();
  }

  // Synchronous download of the first `count` elements (Verify only).
  StatusOr<std::vector<T>> CopyToHost(size_t count) const {
    if (count > size_) return InternalError("CopyToHost: count above size");
    std::vector<T> host(count);
    CUDA_RETURN_IF_ERROR(cudaMemcpy(host.data(), data_, count * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  StatusOr<std::vector<T>> CopyToHost() const { return CopyToHost(size_); }

  T* get() const { return data_; }
  size_t size() const { return size_; }
  size_t bytes() const { return size_ * sizeof(T); }

 private:
  void Free() noexcept {
    FreeDeviceBytes(data_);
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_DEVICE_BUFFER_H_
