// libnccl, loaded at run time (dlopen of libnccl.so.2): the worker starts and every other family
// runs on a host without NCCL (the GPU bundle leaves the 218 MB library out; GPU hosts carry
// libnccl2 system-wide). Only nccl.h's types are used at build time.
#ifndef WARPWATCH_KERNELS_INTERCONNECT_NCCL_LIBRARY_H_
#define WARPWATCH_KERNELS_INTERCONNECT_NCCL_LIBRARY_H_

#include <nccl.h>

#include <string>

#include "common/status/status.h"

namespace warpwatch::kernels {

// The entry points the collectives family calls, resolved from one dlopen'ed libnccl.so.2.
struct NcclLibrary {
  decltype(&ncclGetVersion) get_version = nullptr;
  decltype(&ncclGetErrorString) error_string = nullptr;
  decltype(&ncclCommInitAll) comm_init_all = nullptr;
  decltype(&ncclCommGetAsyncError) comm_async_error = nullptr;
  decltype(&ncclGroupStart) group_start = nullptr;
  decltype(&ncclGroupEnd) group_end = nullptr;
  decltype(&ncclAllReduce) all_reduce = nullptr;
  decltype(&ncclAllGather) all_gather = nullptr;
  decltype(&ncclReduceScatter) reduce_scatter = nullptr;
  int version = 0;  // ncclGetVersion's code, e.g. 22803

  // OK, or INTERNAL naming `call` and NCCL's error string.
  Status Check(ncclResult_t result, const char* call) const;
};

// The process's library, loaded on first call (thread-safe; never unloaded). Before loading it
// forces NCCL_NVLS_ENABLE=0 (KeepNvlsOff). FAILED_PRECONDITION starting "not applicable: libnccl
// not found" when libnccl.so.2 cannot be loaded or lacks an entry point (the engine records the
// point SKIPPED with that reason).
StatusOr<const NcclLibrary*> LoadNccl();

// The same from a given file, uncached (tests: a library that is absent). A loaded library is
// never unloaded.
StatusOr<const NcclLibrary*> LoadNcclFrom(const char* library);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INTERCONNECT_NCCL_LIBRARY_H_
