// File: server/validation/detail/field_rules.cc
#include "server/validation/detail/field_rules.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <sstream>

namespace warpwatch::server::validation::detail {
namespace {

bool ValidLabelKey(const std::string& key) {
  if (key.empty() || key.size() > kMaxLabelKeyLength) return false;
  if (!std::isalpha(static_cast<unsigned char>(key[0]))) return false;
  for (char c : key) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && std::strchr("_.-/", c) == nullptr) {
      return false;
    }
  }
  return true;
}

std::string Num(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

}  // namespace

Status CheckLabels(const google::protobuf::Map<std::string, std::string>& labels,
                   const std::string& field) {
  if (labels.size() > static_cast<size_t>(kMaxLabels)) {
    return InvalidArgumentError(field + ": " + std::to_string(labels.size()) + " labels, at most " +
                                std::to_string(kMaxLabels));
  }
  for (const auto& [key, value] : labels) {
    if (!ValidLabelKey(key)) {
      return InvalidArgumentError(field + ": key \"" + key.substr(0, 80) +
                                  "\" must be 1-63 characters of [A-Za-z0-9_.-/] starting with "
                                  "a letter");
    }
    if (value.size() > kMaxLabelValueLength) {
      return InvalidArgumentError(field + "[" + key + "]: value of " +
                                  std::to_string(value.size()) + " characters, at most " +
                                  std::to_string(kMaxLabelValueLength));
    }
  }
  return OkStatus();
}

Status CheckIntRange(int64_t value, int64_t lo, int64_t hi, const std::string& field) {
  if (value < lo || value > hi) {
    return InvalidArgumentError(field + ": " + std::to_string(value) + " outside [" +
                                std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return OkStatus();
}

Status CheckOptionalPositive(double value, double hi, const std::string& field) {
  if (value == 0) return OkStatus();
  if (!std::isfinite(value) || value <= 0 || value > hi) {
    return InvalidArgumentError(field + ": " + Num(value) + " outside (0, " + Num(hi) +
                                "] (0 = server default)");
  }
  return OkStatus();
}

Status CheckLength(const std::string& value, size_t max_length, const std::string& field) {
  if (value.size() > max_length) {
    return InvalidArgumentError(field + ": " + std::to_string(value.size()) +
                                " characters, at most " + std::to_string(max_length));
  }
  return OkStatus();
}

}  // namespace warpwatch::server::validation::detail
