// File: cli/format/result_units.h
// Numbers of results as people read them: times with their unit, signed percentages, ratios.
#ifndef WARPWATCH_CLI_FORMAT_RESULT_UNITS_H_
#define WARPWATCH_CLI_FORMAT_RESULT_UNITS_H_

#include <string>

namespace warpwatch::cli {

// "812 ns", "12.3 us", "4.56 ms", "1.20 s" (three significant digits); "-" for <= 0 or NaN.
std::string FormatSeconds(double seconds);
// "+4.2%", "-0.3%" from a fraction (0.042); "-" for NaN.
std::string FormatChange(double fraction);
// "75%" from a ratio in [0, 1]; "-" for a negative or NaN value.
std::string FormatPercent(double ratio);
// "0.12%", "1.5%", "12%" (two significant digits, for noise and sensitivity); "-" for a negative or
// NaN value.
std::string FormatFinePercent(double ratio);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_RESULT_UNITS_H_
