// memory.constant: the Family/Case classes (axes, table upload, verification). The kernels are in
// constant_kernels.cu.
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
#include "kernels/memory/constant/constant_kernels.h"
#include "kernels/memory/constant/constant_reference.h"

namespace warpwatch::kernels {
namespace {

const std::vector<std::pair<std::string_view, ConstantAccess>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, ConstantAccess>>{
      {"constant_uniform", ConstantAccess::kConstantUniform},
      {"constant_divergent", ConstantAccess::kConstantDivergent},
      {"global_divergent", ConstantAccess::kGlobalDivergent},
  };
  return *table;
}

struct Config {
  std::string key;
  ConstantAccess access = ConstantAccess::kConstantUniform;
  int64_t n = 0;
  unsigned block = 256;
  unsigned grid = 1;
};

class ConstantCase : public Case {
 public:
  explicit ConstantCase(Config config) : c_(std::move(config)) {}

  // The global table is the source of the __constant__ one, so both hold the same words.
  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(d_table_.Allocate(kConstantTableWords, c_.key + " table"));
    RETURN_IF_ERROR(d_out_.Allocate(static_cast<size_t>(c_.n), c_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_table_.get(), d_table_.size(), kSeed, stream));
    RETURN_IF_ERROR(UploadConstantTable(d_table_.get(), stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchConstantReads(c_.access, d_table_.get(), d_out_.get(), c_.n, c_.grid, c_.block,
                               stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_out_, ConstantReference(c_.access, c_.n, c_.block, kSeed), c_.key,
                              stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = ConstantKernel(c_.access);
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  // The table reads are the work (each feeds one FMA); the only DRAM traffic is the output.
  Work work() const override {
    const double n = static_cast<double>(c_.n);
    Work w;
    w.bytes = sizeof(float) * n;
    w.flops = 2.0 * kConstantReads * n;
    return w;
  }

 private:
  Config c_;
  DeviceBuffer<float> d_table_;
  DeviceBuffer<float> d_out_;
};

class ConstantFamily : public Family {
 public:
  std::string_view name() const override { return "memory.constant"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.access, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    RETURN_IF_ERROR(CheckDeviceMemory(sizeof(float) * static_cast<double>(c.n), prop));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    c.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(c.grid, GridFor(c.n, block, prop));
    return std::unique_ptr<Case>(std::make_unique<ConstantCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(ConstantFamily);

}  // namespace
}  // namespace warpwatch::kernels
