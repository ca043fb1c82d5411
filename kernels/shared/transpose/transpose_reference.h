// CPU reference of shared.transpose.
#ifndef WARPWATCH_KERNELS_SHARED_TRANSPOSE_TRANSPOSE_REFERENCE_H_
#define WARPWATCH_KERNELS_SHARED_TRANSPOSE_TRANSPOSE_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// The side x side output for an input with in[k] = SeededFloat(seed, k): the input itself when
// `transpose` is false (the copy variant), else out[c * side + r] = in[r * side + c].
std::vector<float> TransposeReference(int64_t side, bool transpose, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_SHARED_TRANSPOSE_TRANSPOSE_REFERENCE_H_
