// File: common/report/format.cc
#include "common/report/format.h"

#include <cmath>
#include <cstdio>

namespace warpwatch::report {

std::string FormatSeconds(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0) return "-";
  const char* unit = "s";
  double v = seconds;
  if (seconds < 1e-6) {
    v = seconds * 1e9;
    unit = "ns";
  } else if (seconds < 1e-3) {
    v = seconds * 1e6;
    unit = "us";
  } else if (seconds < 1) {
    v = seconds * 1e3;
    unit = "ms";
  }
  char buf[32];
  int decimals = v >= 100 ? 0 : (v >= 10 ? 1 : 2);
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, v, unit);
  return buf;
}

std::string FormatFixed(double value, int decimals, bool positive_only) {
  if (!std::isfinite(value) || (positive_only && value <= 0)) return "-";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string FormatPercent(double ratio) {
  if (!std::isfinite(ratio) || ratio < 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", ratio * 100);
  return buf;
}

}  // namespace warpwatch::report
