// occupancy.registers kernels behind host launchers: one register-hungry kernel (a per-thread
// recurrence whose kStateWords values stay in registers across kRounds dependent rounds, see
// registers_recurrence.h) compiled under different __launch_bounds__, so only the register budget
// differs between variants.
#ifndef WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_KERNELS_H_
#define WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

enum class RegisterBound {
  kUnbounded,       // no __launch_bounds__: 72 registers, one 512-thread block per SM
  kBounds512x1,     // __launch_bounds__(512, 1): up to 128 registers
  kBounds512x2,     // __launch_bounds__(512, 2): up to 64 registers, two blocks
  kBounds1024x2,    // __launch_bounds__(1024, 2): up to 32 registers, spills the state
};

// Largest block the variant's launch bounds allow (0: none declared).
int RegisterBoundMaxThreads(RegisterBound bound);

// out[i] = the recurrence of registers_recurrence.h on input byte in[i], for i in [0, n); a
// grid-stride loop, so any grid >= 1 works. Preconditions: n >= 0, `block` within the variant's
// launch bound.
Status LaunchRecurrence(RegisterBound bound, const uint8_t* d_in, float* d_out, int64_t n,
                        unsigned grid, unsigned block, cudaStream_t stream);

const void* RecurrenceKernel(RegisterBound bound);

// cudaFuncGetAttributes of the variant's kernel (registers, local memory, max threads).
StatusOr<cudaFuncAttributes> RecurrenceAttributes(RegisterBound bound);

// Resident blocks per SM of the variant's kernel at `block` threads (occupancy API).
StatusOr<int> RecurrenceBlocksPerSm(RegisterBound bound, unsigned block);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_KERNELS_H_
