// File: cli/commands/detail/flag_parsing.cc
#include "cli/commands/detail/flag_parsing.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace warpwatch::cli::detail {
namespace {

bool ParseInt64(const std::string& text, int64_t* value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end != text.c_str() + text.size()) return false;
  *value = v;
  return true;
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

StatusOr<v1::AxisOverride> ParseAxis(const std::string& text) {
  const std::string usage = "--axis \"" + text + "\": expected [FAMILY:]NAME=V1,V2,...";
  const size_t eq = text.find('=');
  if (eq == std::string::npos) return InvalidArgumentError(usage);
  std::string name = text.substr(0, eq);
  v1::AxisOverride axis;
  const size_t colon = name.find(':');
  if (colon != std::string::npos) {
    axis.set_family(name.substr(0, colon));
    name = name.substr(colon + 1);
    if (axis.family().empty()) return InvalidArgumentError(usage + " (empty family)");
  }
  if (name.empty()) return InvalidArgumentError(usage + " (empty axis name)");
  axis.set_axis(name);
  const std::string values = text.substr(eq + 1);
  size_t start = 0;
  while (start <= values.size()) {
    const size_t comma = values.find(',', start);
    const std::string item =
        values.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    int64_t value = 0;
    if (!ParseInt64(item, &value)) {
      return InvalidArgumentError(usage + " (\"" + item + "\" is not an integer)");
    }
    axis.add_values(value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return axis;
}

StatusOr<std::pair<std::string, std::string>> ParseKeyValue(const std::string& text,
                                                            const std::string& flag) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    return InvalidArgumentError(flag + " \"" + text + "\": expected KEY=VALUE");
  }
  return std::make_pair(text.substr(0, eq), text.substr(eq + 1));
}

StatusOr<double> ParseNoise(const std::string& text) {
  std::string number = text;
  const bool percent = !number.empty() && number.back() == '%';
  if (percent) number.pop_back();
  char* end = nullptr;
  errno = 0;
  double value = std::strtod(number.c_str(), &end);
  if (number.empty() || errno != 0 || end != number.c_str() + number.size() ||
      !std::isfinite(value)) {
    return InvalidArgumentError("--max-noise \"" + text +
                                "\": expected a fraction (0.005) or a percentage (0.5%)");
  }
  return percent ? value / 100.0 : value;
}

StatusOr<v1::JobState> ParseJobState(const std::string& text) {
  std::string name = Upper(text);
  if (name.rfind("JOB_STATE_", 0) != 0) name = "JOB_STATE_" + name;
  v1::JobState state;
  if (!v1::JobState_Parse(name, &state) || state == v1::JOB_STATE_UNSPECIFIED) {
    return InvalidArgumentError("--state \"" + text +
                                "\": expected queued, running, succeeded, failed or cancelled");
  }
  return state;
}

}  // namespace warpwatch::cli::detail
