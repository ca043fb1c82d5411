// shared.bank_conflicts: variants, axes and verification on the elementwise case
// template (kernels/core/elementwise_case.h): the input is the table. The kernel is in
// bank_conflicts_kernels.cu. The work is shared-memory reads, not DRAM traffic: a
// case's "operations" are its n reads (each feeds one add), so GFLOP/s reads as reads per ns;
// its bytes are the global memory it touches (the table per block and one float per thread).
#include <memory>
#include <string>
#include <utility>

#include "kernels/core/elementwise_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/shared/bank_conflicts/bank_conflicts_kernels.h"
#include "kernels/shared/bank_conflicts/bank_conflicts_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kConflictFree, kStrided, kBroadcast };

const VariantTable<Variant>& Variants() {
  static const auto& table = NewVariantTable<Variant>({
      {"conflict_free", Variant::kConflictFree},
      {"strided", Variant::kStrided},
      {"broadcast", Variant::kBroadcast},
  });
  return table;
}

class BankConflictsFamily : public Family {
 public:
  std::string_view name() const override { return "shared.bank_conflicts"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<Variant> p, ReadPoint1D(point, Variants()));  // n: reads
    if (p.n % kBankReadsPerThread != 0) {
      return InvalidArgumentError(p.key + ": n must be a multiple of " +
                                  std::to_string(kBankReadsPerThread) + " (reads per thread)");
    }
    const int64_t threads = p.n / kBankReadsPerThread;
    int stride = 1;
    if (p.variant == Variant::kBroadcast) stride = 0;
    if (p.variant == Variant::kStrided) {
      ASSIGN_OR_RETURN(const int64_t axis_stride, AxisValue(point, "stride"));
      if (axis_stride > kBankMaxStride) {
        return InvalidArgumentError(p.key +
                                    ": stride must be <= " + std::to_string(kBankMaxStride));
      }
      stride = static_cast<int>(axis_stride);
    }
    ASSIGN_OR_RETURN(const Launch1D launch,
                     ReadLaunch1D(point, threads, 1, prop, /*whole_warps=*/true));
    RETURN_IF_ERROR(CheckDeviceMemory(sizeof(float) * static_cast<double>(threads), prop));
    ElementwiseSpec<float, float> s;
    s.key = p.key;
    s.in_name = "table";
    s.in_count = kBankTableWords;
    s.out_count = static_cast<size_t>(threads);
    s.run = [threads, stride, launch](const float* d_table, float* d_out, cudaStream_t stream) {
      return LaunchBankConflictReads(d_table, d_out, threads, stride, launch.grid, launch.block,
                                     stream);
    };
    s.reference = [threads, stride] { return BankConflictsReference(threads, stride, kSeed); };
    s.shape = launch.ShapeOf(BankConflictKernel());
    s.work.flops = static_cast<double>(p.n);
    s.work.bytes = sizeof(float) * (static_cast<double>(threads) +
                                    static_cast<double>(launch.grid) * kBankTableWords);
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(BankConflictsFamily);

}  // namespace
}  // namespace warpwatch::kernels
