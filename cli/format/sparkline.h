// File: cli/format/sparkline.h
// A series as one line of block characters (▁▂▃▄▅▆▇█), lowest value lowest block.
#ifndef WARPWATCH_CLI_FORMAT_SPARKLINE_H_
#define WARPWATCH_CLI_FORMAT_SPARKLINE_H_

#include <string>
#include <vector>

namespace warpwatch::cli {

// One block per value, scaled between the finite minimum and maximum (all equal: the middle
// block). A non-finite value is a space. "" for no values.
std::string Sparkline(const std::vector<double>& values);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_SPARKLINE_H_
