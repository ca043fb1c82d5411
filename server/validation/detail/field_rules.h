// File: server/validation/detail/field_rules.h
// Checks shared by the request validators: labels maps, bounded numbers, bounded strings. Each
// returns INVALID_ARGUMENT whose message starts with the field path it was given.
#ifndef WARPWATCH_SERVER_VALIDATION_DETAIL_FIELD_RULES_H_
#define WARPWATCH_SERVER_VALIDATION_DETAIL_FIELD_RULES_H_

#include <google/protobuf/map.h>

#include <cstdint>
#include <string>

#include "common/status/status.h"

namespace warpwatch::server::validation::detail {

inline constexpr int kMaxLabels = 32;
inline constexpr size_t kMaxLabelKeyLength = 63;
inline constexpr size_t kMaxLabelValueLength = 256;

// At most kMaxLabels pairs; keys 1..63 characters of [A-Za-z0-9_.-/] starting with a letter;
// values at most 256 characters. `field` is the map's path ("spec.labels").
Status CheckLabels(const google::protobuf::Map<std::string, std::string>& labels,
                   const std::string& field);

// value in [lo, hi].
Status CheckIntRange(int64_t value, int64_t lo, int64_t hi, const std::string& field);

// 0 (server default) or a finite value in (0, hi].
Status CheckOptionalPositive(double value, double hi, const std::string& field);

// value.size() <= max_length.
Status CheckLength(const std::string& value, size_t max_length, const std::string& field);

}  // namespace warpwatch::server::validation::detail

#endif  // WARPWATCH_SERVER_VALIDATION_DETAIL_FIELD_RULES_H_
