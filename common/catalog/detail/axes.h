// Builders for the axes many families share, so `block_size` and `n` mean the same everywhere.
#ifndef WARPWATCH_COMMON_CATALOG_DETAIL_AXES_H_
#define WARPWATCH_COMMON_CATALOG_DETAIL_AXES_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/catalog/catalog.h"

namespace warpwatch::catalog::detail {

// Threads per block: 32..1024, a multiple of the warp size.
inline AxisInfo BlockSizeAxis(std::vector<int64_t> nightly, std::vector<std::string> variants = {}) {
  AxisInfo a;
  a.name = "block_size";
  a.description = "threads per block";
  a.nightly = std::move(nightly);
  a.min = 32;
  a.max = 1024;
  a.multiple_of = 32;
  a.variants = std::move(variants);
  return a;
}

// Problem size in elements; `what` says what an element is ("float elements copied").
inline AxisInfo ProblemSizeAxis(std::string what, std::vector<int64_t> nightly, int64_t min,
                                int64_t max) {
  AxisInfo a;
  a.name = "n";
  a.description = "problem size: " + std::move(what);
  a.nightly = std::move(nightly);
  a.min = min;
  a.max = max;
  return a;
}

// Any other axis.
inline AxisInfo Axis(std::string name, std::string description, std::vector<int64_t> nightly,
                     int64_t min, int64_t max) {
  AxisInfo a;
  a.name = std::move(name);
  a.description = std::move(description);
  a.nightly = std::move(nightly);
  a.min = min;
  a.max = max;
  return a;
}

}  // namespace warpwatch::catalog::detail

#endif  // WARPWATCH_COMMON_CATALOG_DETAIL_AXES_H_
