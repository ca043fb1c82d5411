// memory.vector_width: the Family/Case classes (axes, launch configuration, verification). The
// kernels are in vector_width_kernels.cu.
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
#include "kernels/memory/vector_width/vector_width_kernels.h"
#include "kernels/memory/vector_width/vector_width_reference.h"

namespace warpwatch::kernels {
namespace {

// Variant -> bytes per word.
const std::vector<std::pair<std::string_view, int>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, int>>{
      {"w1", 1}, {"w2", 2}, {"w4", 4}, {"w8", 8}, {"w16", 16},
  };
  return *table;
}

struct Config {
  std::string key;
  int word_bytes = 4;
  int64_t bytes = 0;  // 4n: n float elements
  unsigned block = 256;
  unsigned grid = 1;
};

class VectorWidthCase : public Case {
 public:
  explicit VectorWidthCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(d_in_.Allocate(static_cast<size_t>(c_.bytes), c_.key + " input"));
    RETURN_IF_ERROR(d_out_.Allocate(static_cast<size_t>(c_.bytes), c_.key + " output"));
    RETURN_IF_ERROR(FillSeededBytes(d_in_.get(), d_in_.size(), kSeed, stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchVectorCopy(c_.word_bytes, d_in_.get(), d_out_.get(), c_.bytes, c_.grid, c_.block,
                            stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_out_, VectorWidthReference(c_.bytes, kSeed), c_.key, stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = VectorCopyKernel(c_.word_bytes);
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  Work work() const override {
    Work w;
    w.bytes = 2.0 * static_cast<double>(c_.bytes);
    return w;
  }

 private:
  Config c_;
  DeviceBuffer<uint8_t> d_in_;
  DeviceBuffer<uint8_t> d_out_;
};

class VectorWidthFamily : public Family {
 public:
  std::string_view name() const override { return "memory.vector_width"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.word_bytes, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(int64_t n, AxisValue(point, "n"));
    c.bytes = n * static_cast<int64_t>(sizeof(float));
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * static_cast<double>(c.bytes), prop));
    ASSIGN_OR_RETURN(int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    c.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(c.grid, GridFor(c.bytes / c.word_bytes, block * kVectorWordsPerThread, prop));
    return std::unique_ptr<Case>(std::make_unique<VectorWidthCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(VectorWidthFamily);

}  // namespace
}  // namespace warpwatch::kernels
