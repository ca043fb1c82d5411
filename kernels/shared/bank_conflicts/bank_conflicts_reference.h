// CPU reference of shared.bank_conflicts.
#ifndef WARPWATCH_KERNELS_SHARED_BANK_CONFLICTS_BANK_CONFLICTS_REFERENCE_H_
#define WARPWATCH_KERNELS_SHARED_BANK_CONFLICTS_BANK_CONFLICTS_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// What each of `threads` threads writes when the table holds SeededFloat(seed, w) in word w:
// thread t's sum of the words BankWord(t % 32, stride, j, k), added in the kernel's order.
std::vector<float> BankConflictsReference(int64_t threads, int stride, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_SHARED_BANK_CONFLICTS_BANK_CONFLICTS_REFERENCE_H_
