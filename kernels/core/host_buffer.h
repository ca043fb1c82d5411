// HostBuffer: RAII owner of one host-side buffer of the kind a host-transfer case measures:
// pageable (ordinary heap memory), page-locked, page-locked write-combining, or page-locked and
// mapped into the device's address space (zero-copy).
#ifndef WARPWATCH_KERNELS_CORE_HOST_BUFFER_H_
#define WARPWATCH_KERNELS_CORE_HOST_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::kernels {

enum class HostMemory { kPageable, kPinned, kWriteCombining, kMapped };

// Not copyable or movable; not thread-safe. Contents are uninitialised after Allocate (pageable:
// zeroed, as std::vector leaves it).
class HostBuffer {
 public:
  HostBuffer() = default;
  ~HostBuffer();
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  // Allocates `bytes` of `kind` (cudaHostAlloc with the kind's flags; kMapped also looks up the
  // device pointer). Called once.
  Status Allocate(HostMemory kind, size_t bytes);

  uint8_t* data() const { return data_; }
  // The device's address of a kMapped buffer (cudaHostGetDevicePointer); nullptr otherwise.
  void* device_pointer() const { return mapped_; }
  HostMemory kind() const { return kind_; }
  size_t size() const { return size_; }

 private:
  HostMemory kind_ = HostMemory::kPageable;
  std::vector<uint8_t> pageable_;
  uint8_t* data_ = nullptr;
  void* mapped_ = nullptr;
  size_t size_ = 0;
};

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_HOST_BUFFER_H_
