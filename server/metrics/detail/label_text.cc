// File: server/metrics/detail/label_text.cc
#include "server/metrics/detail/label_text.h"

#include <algorithm>
#include <cctype>

namespace warpwatch::server::metrics::detail {

std::string LowerLabel(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace warpwatch::server::metrics::detail
