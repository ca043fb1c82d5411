// occupancy.registers: the Family/Case classes. The grid is what the variant's occupancy keeps
// resident (blocks per SM x SMs), so a lower register budget shows up as more warps in flight, and
// a budget below the kernel's live state shows up as local-memory traffic.
#include <cstdint>
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
#include "kernels/occupancy/registers/registers_kernels.h"
#include "kernels/occupancy/registers/registers_recurrence.h"
#include "kernels/occupancy/registers/registers_reference.h"

namespace warpwatch::kernels {
namespace {

const std::vector<std::pair<std::string_view, RegisterBound>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, RegisterBound>>{
      {"regs_unbounded", RegisterBound::kUnbounded},
      {"launch_bounds_512_1", RegisterBound::kBounds512x1},
      {"launch_bounds_512_2", RegisterBound::kBounds512x2},
      {"launch_bounds_1024_2", RegisterBound::kBounds1024x2},
  };
  return *table;
}

// One input byte read, one float written per element.
constexpr double kBytesPerElement = sizeof(uint8_t) + sizeof(float);

struct Config {
  std::string key;
  RegisterBound bound = RegisterBound::kUnbounded;
  int64_t n = 0;
  unsigned block = 512;
  unsigned grid = 1;  // set in Setup from the occupancy API
  int sm_count = 1;
};

class RegistersCase : public Case {
 public:
  explicit RegistersCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    ASSIGN_OR_RETURN(int per_sm, RecurrenceBlocksPerSm(c_.bound, c_.block));
    if (per_sm < 1) return InternalError(c_.key + ": the kernel cannot be resident at this block");
    c_.grid = GridStrideBlocks(c_.n, c_.block, per_sm, c_.sm_count);
    const size_t n = static_cast<size_t>(c_.n);
    RETURN_IF_ERROR(d_in_.Allocate(n, c_.key + " input bytes"));
    RETURN_IF_ERROR(d_out_.Allocate(n, c_.key + " output"));
    RETURN_IF_ERROR(FillSeededBytes(d_in_.get(), n, kSeed, stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchRecurrence(c_.bound, d_in_.get(), d_out_.get(), c_.n, c_.grid, c_.block, stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_out_, RecurrenceReference(c_.n, kSeed), c_.key, stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = RecurrenceKernel(c_.bound);
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  Work work() const override {
    Work w;
    w.bytes = kBytesPerElement * static_cast<double>(c_.n);
    w.flops = 2.0 * kStateWords * (kRounds + 1) * static_cast<double>(c_.n);  // init + rounds
    return w;
  }

 private:
  Config c_;
  DeviceBuffer<uint8_t> d_in_;
  DeviceBuffer<float> d_out_;
};

class RegistersFamily : public Family {
 public:
  std::string_view name() const override { return "occupancy.registers"; }

  // Queries the kernel's attributes (a CUDA call) after the CUDA-free checks: a block above what
  // its registers allow is a skipped point, not a launch failure.
  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.bound, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    c.sm_count = prop.multiProcessorCount;
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    RETURN_IF_ERROR(CheckDeviceMemory(kBytesPerElement * static_cast<double>(c.n), prop));
    ASSIGN_OR_RETURN(int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    const int bound = RegisterBoundMaxThreads(c.bound);
    if (bound > 0 && block > bound) {
      return FailedPreconditionError("block_size " + std::to_string(block) +
                                     " exceeds the variant's __launch_bounds__ of " +
                                     std::to_string(bound) + " threads");
    }
    if (c.bound == RegisterBound::kBounds1024x2 && prop.maxThreadsPerMultiProcessor < 2048) {
      return FailedPreconditionError(
          "launch_bounds_1024_2 needs 2048 threads per SM for two 1024-thread blocks (this GPU "
          "has " + std::to_string(prop.maxThreadsPerMultiProcessor) + ")");
    }
    c.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(cudaFuncAttributes attr, RecurrenceAttributes(c.bound));
    if (block > attr.maxThreadsPerBlock) {
      return FailedPreconditionError(
          "block_size " + std::to_string(block) + " exceeds the " +
          std::to_string(attr.maxThreadsPerBlock) + " threads per block that " +
          std::to_string(attr.numRegs) + " registers per thread allow");
    }
    return std::unique_ptr<Case>(std::make_unique<RegistersCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(RegistersFamily);

}  // namespace
}  // namespace warpwatch::kernels
