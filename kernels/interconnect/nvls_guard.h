// NVLink multicast (NVLS) stays off in every process the worker runs: NCCL_NVLS_ENABLE=0 before any
// NCCL communicator exists. NVLS allocates multicast objects (cuMulticastCreate), which on a shared
// host can put its GPUs out of service; warpwatch measures the links without it, so its bus
// bandwidth is comparable only with figures measured without NVLS (docs/interconnect.md).
#ifndef WARPWATCH_KERNELS_INTERCONNECT_NVLS_GUARD_H_
#define WARPWATCH_KERNELS_INTERCONNECT_NVLS_GUARD_H_

#include <string>

namespace warpwatch::kernels {

inline constexpr const char* kNvlsVariable = "NCCL_NVLS_ENABLE";

// Sets NCCL_NVLS_ENABLE=0 in this process's environment (inherited by every child it starts).
// Unset: set to "0", returns "". Already "0": untouched, returns "". Any other value ("1", "",
// "yes"): overridden to "0" (never refused: a worker must not stop because an operator's
// environment asked for multicast) and returns a one-line note naming the value it replaced, for
// the caller's log. Call before any thread that reads the environment starts (setenv is not
// thread-safe against getenv).
std::string KeepNvlsOff();

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INTERCONNECT_NVLS_GUARD_H_
