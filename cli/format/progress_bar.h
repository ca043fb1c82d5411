// File: cli/format/progress_bar.h
// The one-line progress display of `warpwatch watch`.
#ifndef WARPWATCH_CLI_FORMAT_PROGRESS_BAR_H_
#define WARPWATCH_CLI_FORMAT_PROGRESS_BAR_H_

#include <cstdint>
#include <string>

namespace warpwatch::cli {

// "[##########..........]" of `width` cells between the brackets; done/total clamped to [0, 1];
// an unknown total (0) shows an empty bar.
std::string ProgressBar(int64_t done, int64_t total, int width);

// "12/40 30%" ("12/? " when the total is unknown).
std::string ProgressFraction(int64_t done, int64_t total);

// Cuts `text` to at most `max` characters, ending it with "..." when cut.
std::string Ellipsize(const std::string& text, size_t max);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_PROGRESS_BAR_H_
