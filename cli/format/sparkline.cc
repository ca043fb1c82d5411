// File: cli/format/sparkline.cc
#include "cli/format/sparkline.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace warpwatch::cli {

std::string Sparkline(const std::vector<double>& values) {
  static const char* const kBlocks[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  constexpr int kLevels = 8;
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  std::string out;
  for (double v : values) {
    if (!std::isfinite(v)) {
      out += ' ';
      continue;
    }
    int level = kLevels / 2 - 1;
    if (hi > lo) {
      level = static_cast<int>(std::floor((v - lo) / (hi - lo) * kLevels));
      level = std::clamp(level, 0, kLevels - 1);
    }
    out += kBlocks[level];
  }
  return out;
}

}  // namespace warpwatch::cli
