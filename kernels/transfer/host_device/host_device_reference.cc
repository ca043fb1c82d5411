// CPU reference of transfer.host_device.
#include "kernels/transfer/host_device/host_device_reference.h"

#include <algorithm>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

void FillHostBytes(uint8_t* host, size_t bytes, uint64_t seed) {
  for (size_t i = 0; i < bytes; ++i) host[i] = SeededByte(seed, i);
}

std::vector<uint8_t> HostDeviceReference(size_t bytes, uint64_t seed) {
  std::vector<uint8_t> out(bytes);
  FillHostBytes(out.data(), bytes, seed);
  return out;
}

size_t MaxHostTransferBytes(size_t physical_bytes) {
  return std::min(physical_bytes / 8, size_t{2} << 30);
}

}  // namespace warpwatch::kernels
