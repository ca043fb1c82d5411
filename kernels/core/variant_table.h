// A family's variant table: catalog variant name -> the family's own value (an enum, a word width,
// a function). Written once per family and read by LookupVariant (point_params.h) in MakeCase.
#ifndef WARPWATCH_KERNELS_CORE_VARIANT_TABLE_H_
#define WARPWATCH_KERNELS_CORE_VARIANT_TABLE_H_

#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

namespace warpwatch::kernels {

template <typename Value>
using VariantTable = std::vector<std::pair<std::string_view, Value>>;

// A table that is never destroyed (families read it during static destruction too, and a
// function-local static with a destructor is what the style guide rules out). Use as
//   const VariantTable<Branch>& Variants() {
//     static const auto& table = NewVariantTable<Branch>({{"warp_branch", Branch::kWarp}, ...});
//     return table;
//   }
// Names must be the catalog's variant names (tests/kernels/catalog_coverage_test.cc checks that
// every catalog variant resolves).
template <typename Value>
const VariantTable<Value>& NewVariantTable(
    std::initializer_list<std::pair<std::string_view, Value>> entries) {
  return *new VariantTable<Value>(entries);
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_VARIANT_TABLE_H_
