// File: common/report/format.h
// Number formatting shared by the report's tables: times with units, rates, ratios.
#ifndef WARPWATCH_COMMON_REPORT_FORMAT_H_
#define WARPWATCH_COMMON_REPORT_FORMAT_H_

#include <string>

namespace warpwatch::report {

// 1.234 ms, 56.7 us, 890 ns: three significant digits in the largest unit below the value.
std::string FormatSeconds(double seconds);
// Fixed decimals; "-" for a value that is not finite or not positive when `positive_only`.
std::string FormatFixed(double value, int decimals, bool positive_only = false);
// 0.934 -> "93.4 %"; "-" when negative.
std::string FormatPercent(double ratio);

}  // namespace warpwatch::report

#endif  // WARPWATCH_COMMON_REPORT_FORMAT_H_
