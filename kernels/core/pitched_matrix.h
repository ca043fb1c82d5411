// PitchedMatrix: RAII owner of one width x height float matrix in device memory, with packed rows
// (one cudaMalloc of width * height) or cudaMallocPitch rows. Allocation failures for lack of
// memory are FAILED_PRECONDITION (the point is impossible on this device), never a crash.
#ifndef WARPWATCH_KERNELS_CORE_PITCHED_MATRIX_H_
#define WARPWATCH_KERNELS_CORE_PITCHED_MATRIX_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::kernels {

enum class RowLayout { kPacked, kPitched };

// Not copyable or movable (a case holds its matrices as members); not thread-safe.
class PitchedMatrix {
 public:
  PitchedMatrix() = default;
  ~PitchedMatrix();
  PitchedMatrix(const PitchedMatrix&) = delete;
  PitchedMatrix& operator=(const PitchedMatrix&) = delete;

  // Replaces the contents with an uninitialised matrix; `what` names it in errors.
  Status Allocate(RowLayout layout, int64_t width, int64_t height, const std::string& what);

  // Enqueues element (y, x) = SeededFloat(seed, y * width + x), in either layout: a packed staging
  // buffer is filled and copied row by row into place; waits for `stream` before the staging
  // buffer is freed (Setup only).
  Status FillSeeded(uint64_t seed, cudaStream_t stream);
  // Enqueues zeroes over every row's width (the padding is left alone).
  Status Zero(cudaStream_t stream);
  // Waits for `stream`, then downloads the width x height elements, packed (Verify only).
  StatusOr<std::vector<float>> CopyToHostAfter(cudaStream_t stream) const;

  float* get() const { return static_cast<float*>(data_); }
  size_t pitch_bytes() const { return pitch_bytes_; }
  int64_t pitch_elements() const { return static_cast<int64_t>(pitch_bytes_ / sizeof(float)); }
  int64_t width() const { return width_; }
  int64_t height() const { return height_; }

 private:
  size_t row_bytes() const { return static_cast<size_t>(width_) * sizeof(float); }

  void* data_ = nullptr;
  size_t pitch_bytes_ = 0;
  int64_t width_ = 0;
  int64_t height_ = 0;
};

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_PITCHED_MATRIX_H_
