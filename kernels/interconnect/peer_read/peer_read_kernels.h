// interconnect.peer_read's kernel: a grid-stride read of 16-byte words summed into one 32-bit
// checksum (wrapping addition: exact and independent of order), so the kernel's only traffic is
// the read, and Verify compares one number computed from every word read.
#ifndef WARPWATCH_KERNELS_INTERCONNECT_PEER_READ_PEER_READ_KERNELS_H_
#define WARPWATCH_KERNELS_INTERCONNECT_PEER_READ_PEER_READ_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

inline constexpr unsigned kPeerReadBlock = 256;

// *d_sum += the wrapping sum of the `words` 32-bit words at d_src (`words` a multiple of 4,
// d_src 16-byte aligned; d_src may be a peer GPU's memory with peer access enabled). Launched on
// `stream`'s GPU with `grid` blocks of kPeerReadBlock threads; checks the launch.
Status LaunchPeerRead(const uint32_t* d_src, int64_t words, uint32_t* d_sum, unsigned grid,
                      cudaStream_t stream);
const void* PeerReadKernel();

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INTERCONNECT_PEER_READ_PEER_READ_KERNELS_H_
