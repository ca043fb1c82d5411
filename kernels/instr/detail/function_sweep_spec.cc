// The function sweep's ComputeSpec and accuracy pass.
#include "kernels/instr/detail/function_sweep_spec.h"

#include <sstream>
#include <string>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/seeded_values.h"
#include "kernels/instr/detail/function_sweep_reference.h"

namespace warpwatch::kernels::instr_detail {

StatusOr<ComputeSpec> FunctionSweepSpec(const catalog::Point& point, const cudaDeviceProp& prop,
                                        MathFn fn, const SweepDomain& domain,
                                        double max_call_error) {
  ComputeSpec s;
  s.key = point.Canonical();
  ASSIGN_OR_RETURN(s.n, AxisValue(point, "n"));
  ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
  RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
  s.block = static_cast<unsigned>(block);
  ASSIGN_OR_RETURN(s.grid, GridFor(s.n, block, prop));
  RETURN_IF_ERROR(CheckDeviceMemory(16.0 * static_cast<double>(s.n), prop));
  s.kernel = FunctionSweepKernel(fn);
  const int64_t n = s.n;
  const unsigned grid = s.grid;
  const unsigned block_threads = s.block;
  s.launch = [fn, domain, n, grid, block_threads](const float* d_in, double* d_out,
                                                  cudaStream_t stream) {
    return LaunchFunctionSweep(fn, domain, d_in, d_out, n, grid, block_threads, stream);
  };
  s.reference = [fn, domain](int64_t t) { return SweepReference(fn, domain, kSeed, t); };
  s.tolerance = kSweepSumTolerance;
  const std::string key = s.key;
  s.accuracy = [fn, domain, n, key, max_call_error](const float* d_in, cudaStream_t stream) {
    VerifyResult result;
    DeviceBuffer<float> d_values;
    result.status = d_values.Allocate(static_cast<size_t>(n), key + " accuracy values");
    if (!result.status.ok()) return result;
    result.status = LaunchFunctionValues(fn, domain, d_in, d_values.get(), n, stream);
    if (!result.status.ok()) return result;
    const cudaError_t err = cudaStreamSynchronize(stream);
    if (err != cudaSuccess) {
      result.status = CudaError(err, "cudaStreamSynchronize(stream)", __FILE__, __LINE__);
      return result;
    }
    StatusOr<std::vector<float>> values = d_values.CopyToHost();
    if (!values.ok()) {
      result.status = values.status().Annotate(key);
      return result;
    }
    result.max_error = MaxFunctionError(fn, domain, kSeed, *values);
    if (!(result.max_error <= max_call_error)) {
      std::ostringstream os;
      os << key << ": worst single-call error " << result.max_error << " above the bound "
         << max_call_error;
      result.status = InternalError(os.str());
    }
    return result;
  };
  s.work.bytes = 12.0 * static_cast<double>(s.n);
  s.work.flops = static_cast<double>(s.n) * kSweepCalls;  // function evaluations
  return s;
}

}  // namespace warpwatch::kernels::instr_detail
