// File: cli/format/result_units.cc
#include "cli/format/result_units.h"

#include <cmath>
#include <cstdio>

namespace warpwatch::cli {
namespace {

std::string Three(double value, const char* unit) {
  char buf[32];
  const int decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  std::snprintf(buf, sizeof(buf), "%.*f %s", decimals, value, unit);
  return buf;
}

}  // namespace

std::string FormatSeconds(double seconds) {
  if (!(seconds > 0) || !std::isfinite(seconds)) return "-";
  if (seconds < 1e-6) return Three(seconds * 1e9, "ns");
  if (seconds < 1e-3) return Three(seconds * 1e6, "us");
  if (seconds < 1) return Three(seconds * 1e3, "ms");
  return Three(seconds, "s");
}

std::string FormatChange(double fraction) {
  if (!std::isfinite(fraction)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%+.1f%%", fraction * 100);
  return buf;
}

std::string FormatPercent(double ratio) {
  if (!(ratio >= 0) || !std::isfinite(ratio)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.0f%%", ratio * 100);
  return buf;
}

std::string FormatFinePercent(double ratio) {
  if (!(ratio >= 0) || !std::isfinite(ratio)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2g%%", ratio * 100);
  return buf;
}

}  // namespace warpwatch::cli
