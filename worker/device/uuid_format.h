// Formats a GPU UUID as nvidia-smi and dcgm-exporter print it. CUDA-free.
#ifndef WARPWATCH_WORKER_DEVICE_UUID_FORMAT_H_
#define WARPWATCH_WORKER_DEVICE_UUID_FORMAT_H_

#include <string>

namespace warpwatch::worker {

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (lower-case hex) from the 16 bytes of
// cudaDeviceProp::uuid.
std::string FormatGpuUuid(const unsigned char bytes[16]);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DEVICE_UUID_FORMAT_H_
