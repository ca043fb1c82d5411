// GPU UUID formatting.
#include "worker/device/uuid_format.h"

namespace warpwatch::worker {

std::string FormatGpuUuid(const unsigned char bytes[16]) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 0xf];
  }
  return out;
}

}  // namespace warpwatch::worker
