// Axis lookups for MakeCase.
#include "kernels/core/point_params.h"

namespace warpwatch::kernels {

StatusOr<int64_t> AxisValue(const catalog::Point& point, std::string_view name,
                            int64_t min_value) {
  auto it = point.params.find(std::string(name));
  if (it == point.params.end()) {
    return InvalidArgumentError(point.Canonical() + ": missing axis \"" + std::string(name) + "\"");
  }
  if (it->second < min_value) {
    return InvalidArgumentError(point.Canonical() + ": axis " + std::string(name) + " must be >= " +
                                std::to_string(min_value));
  }
  return it->second;
}

}  // namespace warpwatch::kernels
