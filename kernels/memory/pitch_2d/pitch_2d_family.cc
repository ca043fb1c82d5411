// memory.pitch_2d: the Family/Case classes (axes, the two row layouts, verification). The kernel
// is in pitch_2d_kernels.cu.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/seeded_fill.h"
#include "kernels/core/seeded_values.h"
#include "kernels/core/verify.h"
#include "kernels/memory/pitch_2d/pitch_2d_kernels.h"
#include "kernels/memory/pitch_2d/pitch_2d_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kPacked, kPitched };

const std::vector<std::pair<std::string_view, Variant>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, Variant>>{
      {"packed", Variant::kPacked},
      {"pitched", Variant::kPitched},
  };
  return *table;
}

// A width x height float matrix in device memory: packed rows (cudaMalloc of width * height) or
// cudaMallocPitch rows. Owns the allocation; move-free, one per buffer of a case.
class Matrix {
 public:
  Matrix() = default;
  ~Matrix() { FreeDeviceBytes(data_); }
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;

  Status Allocate(Variant layout, int64_t width, int64_t height, const std::string& what) {
    const size_t row_bytes = static_cast<size_t>(width) * sizeof(float);
    if (layout == Variant::kPacked) {
      RETURN_IF_ERROR(AllocateDeviceBytes(row_bytes * static_cast<size_t>(height), what, &data_));
      pitch_bytes_ = row_bytes;
      return OkStatus();
    }
    const cudaError_t err =
        cudaMallocPitch(&data_, &pitch_bytes_, row_bytes, static_cast<size_t>(height));
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // not sticky: clear it for the launch checks that follow
      data_ = nullptr;
      return FailedPreconditionError(what + ": cudaMallocPitch of " + std::to_string(height) +
                                     " rows of " + std::to_string(row_bytes) +
                                     " bytes: out of device memory");
    }
    CUDA_RETURN_IF_ERROR(err);
    return OkStatus();
  }

  float* get() const { return static_cast<float*>(data_); }
  size_t pitch_bytes() const { return pitch_bytes_; }
  int64_t pitch_elements() const { return static_cast<int64_t>(pitch_bytes_ / sizeof(float)); }

 private:
  void* data_ = nullptr;
  size_t pitch_bytes_ = 0;
};

struct Config {
  std::string key;
  Variant layout = Variant::kPitched;
  int64_t width = 0;
  int64_t height = 0;
  unsigned block = 256;
  dim3 grid{1, 1, 1};
};

class Pitch2dCase : public Case {
 public:
  explicit Pitch2dCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(d_in_.Allocate(c_.layout, c_.width, c_.height, c_.key + " input"));
    RETURN_IF_ERROR(d_out_.Allocate(c_.layout, c_.width, c_.height, c_.key + " output"));
    const size_t row_bytes = static_cast<size_t>(c_.width) * sizeof(float);
    const size_t rows = static_cast<size_t>(c_.height);
    // Element (y, x) holds SeededFloat(kSeed, y * width + x) in either layout: fill a packed
    // staging matrix and copy it row by row into place.
    DeviceBuffer<float> staging;
    RETURN_IF_ERROR(
        staging.Allocate(static_cast<size_t>(c_.width * c_.height), c_.key + " staging"));
    RETURN_IF_ERROR(FillSeededFloats(staging.get(), staging.size(), kSeed, stream));
    CUDA_RETURN_IF_ERROR(cudaMemcpy2DAsync(d_in_.get(), d_in_.pitch_bytes(), staging.get(),
                                           row_bytes, row_bytes, rows, cudaMemcpyDeviceToDevice,
                                           stream));
    CUDA_RETURN_IF_ERROR(
        cudaMemset2DAsync(d_out_.get(), d_out_.pitch_bytes(), 0, row_bytes, rows, stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));  // before `staging` is freed
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchPitch2dScale(d_in_.get(), d_out_.get(), c_.width, c_.height,
                              d_out_.pitch_elements(), c_.grid, c_.block, stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    VerifyResult result;
    cudaError_t err = cudaStreamSynchronize(stream);
    if (err != cudaSuccess) {
      result.status = CudaError(err, "cudaStreamSynchronize(stream)", __FILE__, __LINE__);
      return result;
    }
    const size_t row_bytes = static_cast<size_t>(c_.width) * sizeof(float);
    std::vector<float> got(static_cast<size_t>(c_.width * c_.height));
    err = cudaMemcpy2D(got.data(), row_bytes, d_out_.get(), d_out_.pitch_bytes(), row_bytes,
                       static_cast<size_t>(c_.height), cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
      result.status = CudaError(err, "cudaMemcpy2D(output)", __FILE__, __LINE__);
      return result;
    }
    return CompareExact(Pitch2dReference(c_.width, c_.height, kSeed), got, c_.key);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = Pitch2dKernel();
    shape.grid = c_.grid;
    shape.block = dim3(c_.block);
    return shape;
  }

  // width x height floats read and written; the padding is not work.
  Work work() const override {
    Work w;
    w.bytes = 2.0 * sizeof(float) * static_cast<double>(c_.width) * static_cast<double>(c_.height);
    w.flops = static_cast<double>(c_.width) * static_cast<double>(c_.height);
    return w;
  }

 private:
  Config c_;
  Matrix d_in_;
  Matrix d_out_;
};

class Pitch2dFamily : public Family {
 public:
  std::string_view name() const override { return "memory.pitch_2d"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.layout, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.width, AxisValue(point, "width"));
    ASSIGN_OR_RETURN(c.height, AxisValue(point, "height"));
    // Input, output (each at most one 512-byte pitch alignment wider per row) and the staging copy.
    RETURN_IF_ERROR(CheckDeviceMemory(
        sizeof(float) * static_cast<double>(c.height) * (3.0 * static_cast<double>(c.width) + 256),
        prop));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    c.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(c.grid.x, GridFor(c.width, block, prop));
    c.grid.y =
        static_cast<unsigned>(c.height < kPitch2dMaxGridRows ? c.height : kPitch2dMaxGridRows);
    return std::unique_ptr<Case>(std::make_unique<Pitch2dCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(Pitch2dFamily);

}  // namespace
}  // namespace warpwatch::kernels
