// File: cli/format/progress_bar.cc
#include "cli/format/progress_bar.h"

#include <algorithm>

namespace warpwatch::cli {

std::string ProgressBar(int64_t done, int64_t total, int width) {
  width = std::max(width, 1);
  int filled = 0;
  if (total > 0) {
    const int64_t clamped = std::clamp<int64_t>(done, 0, total);
    filled = static_cast<int>(clamped * width / total);
  }
  return "[" + std::string(filled, '#') + std::string(width - filled, '.') + "]";
}

std::string ProgressFraction(int64_t done, int64_t total) {
  if (total <= 0) return std::to_string(done) + "/?";
  const int64_t percent = std::clamp<int64_t>(done, 0, total) * 100 / total;
  return std::to_string(done) + "/" + std::to_string(total) + " " + std::to_string(percent) + "%";
}

std::string Ellipsize(const std::string& text, size_t max) {
  if (text.size() <= max) return text;
  if (max <= 3) return text.substr(0, max);
  return text.substr(0, max - 3) + "...";
}

}  // namespace warpwatch::cli
