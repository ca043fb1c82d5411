// shared.bank_conflicts: the Family/Case classes (axes, launch configuration, verification). The
// kernel is in bank_conflicts_kernels.cu. The work is shared-memory reads, not DRAM traffic: a
// case's "operations" are its n reads (each feeds one add), so GFLOP/s reads as reads per ns;
// its bytes are the global memory it touches (the table per block and one float per thread).
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
#include "kernels/shared/bank_conflicts/bank_conflicts_kernels.h"
#include "kernels/shared/bank_conflicts/bank_conflicts_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kConflictFree, kStrided, kBroadcast };

const std::vector<std::pair<std::string_view, Variant>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, Variant>>{
      {"conflict_free", Variant::kConflictFree},
      {"strided", Variant::kStrided},
      {"broadcast", Variant::kBroadcast},
  };
  return *table;
}

struct Config {
  std::string key;
  int64_t n = 0;        // reads, summed over the grid
  int64_t threads = 0;  // n / kBankReadsPerThread
  int stride = 1;
  unsigned block = 256;
  unsigned grid = 1;
};

class BankConflictsCase : public Case {
 public:
  explicit BankConflictsCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(d_table_.Allocate(kBankTableWords, c_.key + " table"));
    RETURN_IF_ERROR(d_out_.Allocate(static_cast<size_t>(c_.threads), c_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_table_.get(), d_table_.size(), kSeed, stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchBankConflictReads(d_table_.get(), d_out_.get(), c_.threads, c_.stride, c_.grid,
                                   c_.block, stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_out_, BankConflictsReference(c_.threads, c_.stride, kSeed), c_.key,
                              stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = BankConflictKernel();
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  Work work() const override {
    Work w;
    w.flops = static_cast<double>(c_.n);
    w.bytes = sizeof(float) *
              (static_cast<double>(c_.threads) + static_cast<double>(c_.grid) * kBankTableWords);
    return w;
  }

 private:
  Config c_;
  DeviceBuffer<float> d_table_;
  DeviceBuffer<float> d_out_;
};

class BankConflictsFamily : public Family {
 public:
  std::string_view name() const override { return "shared.bank_conflicts"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Variant variant, LookupVariant(point, Variants()));
    Config c;
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    if (c.n % kBankReadsPerThread != 0) {
      return InvalidArgumentError(c.key + ": n must be a multiple of " +
                                  std::to_string(kBankReadsPerThread) + " (reads per thread)");
    }
    c.threads = c.n / kBankReadsPerThread;
    switch (variant) {
      case Variant::kConflictFree:
        c.stride = 1;
        break;
      case Variant::kBroadcast:
        c.stride = 0;
        break;
      case Variant::kStrided: {
        ASSIGN_OR_RETURN(const int64_t stride, AxisValue(point, "stride"));
        if (stride > kBankMaxStride) {
          return InvalidArgumentError(c.key +
                                      ": stride must be <= " + std::to_string(kBankMaxStride));
        }
        c.stride = static_cast<int>(stride);
        break;
      }
    }
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    if (block % 32 != 0) return InvalidArgumentError(c.key + ": block_size must be whole warps");
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    RETURN_IF_ERROR(CheckDeviceMemory(sizeof(float) * static_cast<double>(c.threads), prop));
    c.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(c.grid, GridFor(c.threads, block, prop));
    return std::unique_ptr<Case>(std::make_unique<BankConflictsCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(BankConflictsFamily);

}  // namespace
}  // namespace warpwatch::kernels
