// Inputs and CPU reference of occupancy.registers.
#ifndef WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_REFERENCE_H_
#define WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// The recurrence of registers_recurrence.h on one input byte, with std::fma in the kernel's
// order: bitwise what the device computes (every operation is one correctly rounded fma or an
// exact scaling; no denormal flushing on either side).
float RecurrenceOfByte(uint8_t b);

// out[i] = RecurrenceOfByte(SeededByte(seed, i)) for i in [0, n). The input has at most 255
// distinct values, so the recurrence is evaluated once per value and looked up: the reference
// stays fast at n = 2^28 while the GPU still runs the whole recurrence for every element.
std::vector<float> RecurrenceReference(int64_t n, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_REFERENCE_H_
