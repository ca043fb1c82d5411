// The contract between the measurement engine (worker/) and the kernel suite (kernels/): a Family
// turns a catalog Point into a Case; the engine sets the case up, verifies it, and times Run().
#ifndef WARPWATCH_KERNELS_CORE_FAMILY_H_
#define WARPWATCH_KERNELS_CORE_FAMILY_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/catalog/catalog.h"
#include "common/catalog/plan.h"
#include "common/status/status.h"

namespace warpwatch::kernels {

// Launch configuration of the timed region's main kernel (the first one Run() launches), for
// occupancy (cudaFuncGetAttributes and the occupancy API). `function` is the __global__ function's
// address; nullptr when the timed region is not a kernel of ours (cudaMemcpy, CUB, cuBLAS):
// occupancy is then not reported. Kernel names are not declared here: the engine reads the real
// symbols (cudaFuncGetName, and CUPTI's records of every kernel Run() launches).
struct LaunchShape {
  const void* function = nullptr;
  dim3 grid{1, 1, 1};
  dim3 block{1, 1, 1};
  size_t dynamic_shared_bytes = 0;
};

// Useful work of one Run(), for GB/s, GFLOP/s and % of peak. Count what the algorithm must move
// (e.g. a copy of n floats: 2*n*4 bytes), not what a bad access pattern wastes: the waste is what
// the lower GB/s shows.
struct Work {
  double bytes = 0;
  double flops = 0;                 // "operations": FMAs count 2, other ops 1
  // Bytes that cross the busiest link per Run(), for a collective's bus bandwidth as nccl-tests
  // defines it (busbw = bus_bytes / time = algbw * factor); 0 for families without one.
  double bus_bytes = 0;
};

struct VerifyResult {
  Status status;                    // OK when the output matches the CPU reference
  double max_error = 0;             // worst absolute or relative error seen (0 when exact)
};

// One prepared point. Lifetime: created by Family::MakeCase, destroyed before the next point's
// case is created (owns its device buffers). Not thread-safe; used from one thread.
class Case {
 public:
  virtual ~Case() = default;

  // Allocates buffers and fills inputs from a fixed seed (never all zeros). Called once.
  virtual Status Setup(cudaStream_t stream) = 0;

  // Enqueues exactly one execution of the timed region on `stream`: no allocation, no host sync,
  // checks the launch with CUDA_RETURN_IF_LAUNCH_ERROR().
  virtual Status Run(cudaStream_t stream) = 0;

  // Called after one Run() has completed: copies the output back and compares it with a CPU
  // reference computed from the same inputs.
  virtual VerifyResult Verify(cudaStream_t stream) = 0;

  // Called outside the timed region before each Run(): kernels that work in place restore their
  // input here. Default: nothing to restore.
  virtual Status Reset(cudaStream_t /*stream*/) { return OkStatus(); }

  // Launch configuration of Run()'s kernel (valid after Setup()).
  virtual LaunchShape Shape() const = 0;

  // Useful work of one Run().
  virtual Work work() const = 0;

  // True when samples should be taken back to back with a warm L2 (the family asks for hot mode).
  virtual bool hot() const { return false; }

  // True when Run() waits for the host (pageable copies, host callbacks): the engine then cannot
  // hold the stream behind its blocking kernel while Run() enqueues, and the sample includes
  // Run()'s launch time, as such a region does by nature.
  virtual bool host_synchronous() const { return false; }
};

// One family's CUDA implementation. Stateless and thread-safe; registered once at static-init time.
class Family {
 public:
  virtual ~Family() = default;

  // Must equal a catalog family's name.
  virtual std::string_view name() const = 0;

  // Builds the case for `point` on the device described by `prop`. A point impossible on this
  // device (block above the maximum, shared memory above the limit, n too large for memory)
  // returns FAILED_PRECONDITION whose message is the reason: the engine records it SKIPPED.
  // Any other error is recorded FAILED.
  virtual StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                                   const cudaDeviceProp& prop) const = 0;
};

// Registry of implementations, filled by WARPWATCH_REGISTER_FAMILY at static-init time.
void RegisterFamily(std::unique_ptr<Family> family);
// nullptr when this build does not implement the family.
const Family* FindImplementation(std::string_view name);
// Names of implemented families, sorted.
std::vector<std::string> ImplementedFamilies();

}  // namespace warpwatch::kernels

#define WW_FAMILY_CONCAT_INNER_(a, b) a##b
#define WW_FAMILY_CONCAT_(a, b) WW_FAMILY_CONCAT_INNER_(a, b)
// In one .cc/.cu of the family, at namespace scope: WARPWATCH_REGISTER_FAMILY(ReduceFamily);
// kernels/ is linked as an OBJECT library so these registrations are never dropped.
#define WARPWATCH_REGISTER_FAMILY(Type)                                          \
  static const bool WW_FAMILY_CONCAT_(ww_registered_family_, __LINE__) =         \
      (::warpwatch::kernels::RegisterFamily(std::make_unique<Type>()), true)

#endif  // WARPWATCH_KERNELS_CORE_FAMILY_H_
