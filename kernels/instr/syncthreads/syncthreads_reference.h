// CPU reference of instr.syncthreads.
#ifndef WARPWATCH_KERNELS_INSTR_SYNCTHREADS_SYNCTHREADS_REFERENCE_H_
#define WARPWATCH_KERNELS_INSTR_SYNCTHREADS_SYNCTHREADS_REFERENCE_H_

#include <cstdint>

#include "kernels/instr/syncthreads/syncthreads_kernels.h"

namespace warpwatch::kernels {

// What thread t (< n) stores: the loop of LaunchBarrierLoop run for t and its partner t ^ 1
// (which starts at 0 when it is >= n), inputs SeededFloat(seed, i). Precondition: even block
// size, so t ^ 1 is in t's block.
double BarrierReference(BarrierKind kind, uint64_t seed, int64_t n, int64_t t, int iterations);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_SYNCTHREADS_SYNCTHREADS_REFERENCE_H_
