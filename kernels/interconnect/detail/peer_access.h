// Peer access between two GPUs of the node, enabled for the process (the CUDA context of each).
#ifndef WARPWATCH_KERNELS_INTERCONNECT_DETAIL_PEER_ACCESS_H_
#define WARPWATCH_KERNELS_INTERCONNECT_DETAIL_PEER_ACCESS_H_

#include "common/status/status.h"

namespace warpwatch::kernels::detail {

// OK when `accessor` can reach `owner`'s memory (cudaDeviceCanAccessPeer); else
// FAILED_PRECONDITION starting "not applicable: " naming the pair. Families call it in MakeCase,
// where FAILED_PRECONDITION is the engine's "skip" (later it would be a failure).
Status CheckPeerPath(int accessor, int owner);

// Lets `accessor` load, store and copy from `owner`'s memory (cudaDeviceEnablePeerAccess on
// `accessor`); already enabled is OK. FAILED_PRECONDITION starting "not applicable: " when
// cudaDeviceCanAccessPeer says the pair has no peer path (PCIe without P2P, across sockets).
// Peer access stays enabled for the rest of the process: it is a property of the context, and
// every later case of the process may rely on it.
Status EnablePeerAccess(int accessor, int owner);

}  // namespace warpwatch::kernels::detail

#endif  // WARPWATCH_KERNELS_INTERCONNECT_DETAIL_PEER_ACCESS_H_
