// CPU reference of transfer.host_device: the bytes every variant must land in device memory.
#ifndef WARPWATCH_KERNELS_TRANSFER_HOST_DEVICE_HOST_DEVICE_REFERENCE_H_
#define WARPWATCH_KERNELS_TRANSFER_HOST_DEVICE_HOST_DEVICE_REFERENCE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// Writes SeededByte(seed, i) into host[i] for i < bytes (the source buffer, whatever its kind).
void FillHostBytes(uint8_t* host, size_t bytes, uint64_t seed);

// The expected device contents: SeededByte(seed, i) for i < bytes.
std::vector<uint8_t> HostDeviceReference(size_t bytes, uint64_t seed);

// The largest source buffer a point may use on a host with `physical_bytes` of memory: an eighth
// of it (page-locked memory is taken from every other process), at most 2 GiB.
size_t MaxHostTransferBytes(size_t physical_bytes);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_TRANSFER_HOST_DEVICE_HOST_DEVICE_REFERENCE_H_
