// dlopen of libnccl.so.2 and its entry points.
#include "kernels/interconnect/nccl_library.h"

#include <dlfcn.h>

#include <cstdio>
#include <mutex>

#include "kernels/interconnect/interconnect_plan.h"
#include "kernels/interconnect/nvls_guard.h"

namespace warpwatch::kernels {
namespace {

constexpr const char* kLibrary = "libnccl.so.2";

template <typename Fn>
bool Resolve(void* lib, const char* name, Fn* out) {
  *out = reinterpret_cast<Fn>(::dlsym(lib, name));
  return *out != nullptr;
}

StatusOr<const NcclLibrary*> Load(const char* library) {
  const std::string note = KeepNvlsOff();
  if (!note.empty()) std::fprintf(stderr, "warpwatch: %s\n", note.c_str());
  void* lib = ::dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = ::dlerror();
    return FailedPreconditionError(std::string(kNotApplicable) + "libnccl not found (" +
                                   (why != nullptr ? why : library) + ")");
  }
  auto* nccl = new NcclLibrary();  // never freed: the library stays loaded for the process
  const bool all = Resolve(lib, "ncclGetVersion", &nccl->get_version) &&
                   Resolve(lib, "ncclGetErrorString", &nccl->error_string) &&
                   Resolve(lib, "ncclCommInitAll", &nccl->comm_init_all) &&
                   Resolve(lib, "ncclCommGetAsyncError", &nccl->comm_async_error) &&
                   Resolve(lib, "ncclGroupStart", &nccl->group_start) &&
                   Resolve(lib, "ncclGroupEnd", &nccl->group_end) &&
                   Resolve(lib, "ncclAllReduce", &nccl->all_reduce) &&
                   Resolve(lib, "ncclAllGather", &nccl->all_gather) &&
                   Resolve(lib, "ncclReduceScatter", &nccl->reduce_scatter);
  if (!all) {
    delete nccl;
    ::dlclose(lib);
    return FailedPreconditionError(std::string(kNotApplicable) + "libnccl not found (" +
                                   library + " lacks an entry point warpwatch calls)");
  }
  Status s = nccl->Check(nccl->get_version(&nccl->version), "ncclGetVersion");
  if (!s.ok()) {
    delete nccl;
    ::dlclose(lib);
    return s;
  }
  return static_cast<const NcclLibrary*>(nccl);
}

}  // namespace

Status NcclLibrary::Check(ncclResult_t result, const char* call) const {
  if (result == ncclSuccess) return OkStatus();
  return InternalError(std::string(call) + ": " +
                       (error_string != nullptr ? error_string(result) : "NCCL error") + " (" +
                       std::to_string(static_cast<int>(result)) + ")");
}

StatusOr<const NcclLibrary*> LoadNccl() {
  static std::once_flag once;
  static StatusOr<const NcclLibrary*>* loaded = nullptr;  // never destroyed
  std::call_once(once, [] { loaded = new StatusOr<const NcclLibrary*>(Load(kLibrary)); });
  return *loaded;
}

StatusOr<const NcclLibrary*> LoadNcclFrom(const char* library) { return Load(library); }

}  // namespace warpwatch::kernels
