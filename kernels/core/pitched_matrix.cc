// PitchedMatrix: allocation, seeded fill and download of packed or pitched float matrices.
#include "kernels/core/pitched_matrix.h"

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/seeded_fill.h"

namespace warpwatch::kernels {

PitchedMatrix::~PitchedMatrix() { FreeDeviceBytes(data_); }

Status PitchedMatrix::Allocate(RowLayout layout, int64_t width, int64_t height,
                               const std::string& what) {
  FreeDeviceBytes(data_);
  data_ = nullptr;
  width_ = width;
  height_ = height;
  if (layout == RowLayout::kPacked) {
    RETURN_IF_ERROR(AllocateDeviceBytes(row_bytes() * static_cast<size_t>(height), what, &data_));
    pitch_bytes_ = row_bytes();
    return OkStatus();
  }
  const cudaError_t err =
      cudaMallocPitch(&data_, &pitch_bytes_, row_bytes(), static_cast<size_t>(height));
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // not sticky: clear it for the launch checks that follow
    data_ = nullptr;
    return FailedPreconditionError(what + ": cudaMallocPitch of " + std::to_string(height) +
                                   " rows of " + std::to_string(row_bytes()) +
                                   " bytes: out of device memory");
  }
  CUDA_RETURN_IF_ERROR(err);
  return OkStatus();
}

Status PitchedMatrix::FillSeeded(uint64_t seed, cudaStream_t stream) {
  DeviceBuffer<float> staging;
  RETURN_IF_ERROR(staging.Allocate(static_cast<size_t>(width_ * height_), "staging"));
  RETURN_IF_ERROR(FillSeededFloats(staging.get(), staging.size(), seed, stream));
  CUDA_RETURN_IF_ERROR(cudaMemcpy2DAsync(data_, pitch_bytes_, staging.get(), row_bytes(),
                                         row_bytes(), static_cast<size_t>(height_),
                                         cudaMemcpyDeviceToDevice, stream));
  CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));  // before `staging` is freed
  return OkStatus();
}

Status PitchedMatrix::Zero(cudaStream_t stream) {
  CUDA_RETURN_IF_ERROR(cudaMemset2DAsync(data_, pitch_bytes_, 0, row_bytes(),
                                         static_cast<size_t>(height_), stream));
  return OkStatus();
}

StatusOr<std::vector<float>> PitchedMatrix::CopyToHostAfter(cudaStream_t stream) const {
  CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
  std::vector<float> host(static_cast<size_t>(width_ * height_));
  CUDA_RETURN_IF_ERROR(cudaMemcpy2D(host.data(), row_bytes(), data_, pitch_bytes_, row_bytes(),
                                    static_cast<size_t>(height_), cudaMemcpyDeviceToHost));
  return host;
}

}  // namespace warpwatch::kernels
