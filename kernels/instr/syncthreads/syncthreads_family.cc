// instr.syncthreads (guide 5.4.3 synchronization instruction): the Family (axes -> ComputeSpec).
// Work.flops counts barriers: one per thread per iteration (the floor's iterations count the
// same, so its figure is the loop without the barrier's cost).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/seeded_values.h"
#include "kernels/instr/detail/compute_case.h"
#include "kernels/instr/syncthreads/syncthreads_kernels.h"
#include "kernels/instr/syncthreads/syncthreads_reference.h"

namespace warpwatch::kernels {
namespace {

const std::vector<std::pair<std::string_view, BarrierKind>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, BarrierKind>>{
      {"syncthreads", BarrierKind::kSyncthreads},
      {"syncwarp", BarrierKind::kSyncwarp},
      {"no_barrier", BarrierKind::kNone},
  };
  return *table;
}

class SyncthreadsFamily : public Family {
 public:
  std::string_view name() const override { return "instr.syncthreads"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const BarrierKind kind, LookupVariant(point, Variants()));
    instr_detail::ComputeSpec s;
    s.key = point.Canonical();
    ASSIGN_OR_RETURN(s.n, AxisValue(point, "n"));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    if (block % 2 != 0) {
      return InvalidArgumentError(s.key + ": block_size must be even (threads exchange in pairs)");
    }
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    s.block = static_cast<unsigned>(block);
    s.dynamic_shared_bytes = BarrierSharedBytes(s.block);
    RETURN_IF_ERROR(CheckSharedBytes(s.dynamic_shared_bytes, prop));
    ASSIGN_OR_RETURN(s.grid, GridFor(s.n, block, prop));
    RETURN_IF_ERROR(CheckDeviceMemory(12.0 * static_cast<double>(s.n), prop));
    s.kernel = BarrierKernel(kind);
    const int64_t n = s.n;
    const unsigned grid = s.grid;
    const unsigned block_threads = s.block;
    s.launch = [kind, n, grid, block_threads](const float* d_in, double* d_out,
                                              cudaStream_t stream) {
      return LaunchBarrierLoop(kind, d_in, d_out, n, grid, block_threads, stream);
    };
    s.reference = [kind, n](int64_t t) {
      return BarrierReference(kind, kSeed, n, t, kBarrierIterations);
    };
    s.work.bytes = 12.0 * static_cast<double>(s.n);
    s.work.flops = static_cast<double>(s.n) * kBarrierIterations;
    return instr_detail::MakeComputeCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(SyncthreadsFamily);

}  // namespace
}  // namespace warpwatch::kernels
