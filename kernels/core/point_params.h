// Reading a catalog Point's axis values and variant inside Family::MakeCase (CUDA-free).
#ifndef WARPWATCH_KERNELS_CORE_POINT_PARAMS_H_
#define WARPWATCH_KERNELS_CORE_POINT_PARAMS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/catalog/plan.h"
#include "common/status/status.h"

namespace warpwatch::kernels {

// The value of axis `name`; INVALID_ARGUMENT naming the point when it is missing or < min_value.
StatusOr<int64_t> AxisValue(const catalog::Point& point, std::string_view name,
                            int64_t min_value = 1);

// Maps point.variant to the family's enum through `table`; INVALID_ARGUMENT
// "<family>: unknown variant \"x\"" when absent. Families call it first in MakeCase, before any
// other check, so "is every catalog variant implemented" is testable without a GPU.
template <typename Enum>
StatusOr<Enum> LookupVariant(const catalog::Point& point,
                             const std::vector<std::pair<std::string_view, Enum>>& table) {
  for (const auto& [name, value] : table) {
    if (name == point.variant) return value;
  }
  return InvalidArgumentError(point.family + ": unknown variant \"" + point.variant + "\"");
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_POINT_PARAMS_H_
