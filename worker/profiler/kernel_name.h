// Kernel names as profilers print them, from a kernel's symbol. CUDA-free.
#ifndef WARPWATCH_WORKER_PROFILER_KERNEL_NAME_H_
#define WARPWATCH_WORKER_PROFILER_KERNEL_NAME_H_

#include <string>

namespace warpwatch::worker {

struct KernelName {
  std::string name;       // "CoalescingCopyKernel<0>": no return type, namespaces or parameters
  std::string demangled;  // the whole demangled signature (`ncu --kernel-name-base demangled`)
  std::string mangled;    // the symbol as given
};

// Demangles `symbol` (Itanium ABI, as nvcc emits) and shortens it the way Nsight tools' short
// names read: the return type, the namespaces and class scopes of the function itself and the
// parameter list are dropped; template arguments stay as the demangler spells them. A symbol that
// does not demangle (a C name, "memcpy") is its own name.
KernelName NameKernel(const std::string& symbol);

// The short form of an already demangled signature (the rule above).
std::string ShortKernelName(const std::string& demangled);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_PROFILER_KERNEL_NAME_H_
