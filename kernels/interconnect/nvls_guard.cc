// NCCL_NVLS_ENABLE forced to 0 in the worker's environment.
#include "kernels/interconnect/nvls_guard.h"

#include <cstdlib>
#include <cstring>

namespace warpwatch::kernels {

std::string KeepNvlsOff() {
  const char* current = std::getenv(kNvlsVariable);
  if (current != nullptr && std::strcmp(current, "0") == 0) return "";
  std::string note;
  if (current != nullptr) {
    note = std::string(kNvlsVariable) + "=\"" + current +
           "\" overridden to 0: warpwatch never enables NVLink multicast (NVLS)";
  }
  ::setenv(kNvlsVariable, "0", /*overwrite=*/1);
  return note;
}

}  // namespace warpwatch::kernels
