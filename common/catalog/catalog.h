// The kernel catalog: CUDA-free description of every family of the guide's suite (name, guide
// section, lesson, variants, axes, counters). The server validates jobs against it without linking
// CUDA; the worker's CUDA implementations (kernels/) register against the same names.
#ifndef WARPWATCH_COMMON_CATALOG_CATALOG_H_
#define WARPWATCH_COMMON_CATALOG_CATALOG_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpwatch::catalog {

// One axis of a family's parameter space. Values are integers; every value of a job must lie in
// [min, max], be a multiple of `multiple_of`, and be a power of two when `power_of_two` is set.
// `block_size` (threads per block) and `n` (problem size in elements) mean the same in every family.
struct AxisInfo {
  std::string name;                // snake_case
  std::string description;
  std::vector<int64_t> nightly;    // small default sweep for the nightly suite
  int64_t min = 0;
  int64_t max = 0;
  int64_t multiple_of = 1;
  bool power_of_two = false;
};

struct VariantInfo {
  std::string name;                // snake_case, unique within the family
  std::string description;
  bool recommended = false;        // the variant the guide recommends
  bool reference = false;          // a library/hardware ceiling (cudaMemcpy, CUB, cuBLAS)
};

struct FamilyInfo {
  std::string name;                // "memory.coalescing"
  std::string guide_section;       // "5.3.2 global memory"
  std::string lesson;              // one line: what the numbers should show
  std::vector<VariantInfo> variants;
  std::vector<AxisInfo> axes;
  std::vector<std::string> counters;  // CUPTI metrics that judge the family (may be empty)
  bool test_only = false;          // exists for tests (a faulting family); not in the nightly suite

  const VariantInfo* FindVariant(std::string_view variant) const;
  const AxisInfo* FindAxis(std::string_view axis) const;
};

// Every family, in kernel-suite.md order, followed by test-only families. Immutable; thread-safe.
const std::vector<FamilyInfo>& Families();

// nullptr when no family has that name.
const FamilyInfo* FindFamily(std::string_view name);

// Shell-style glob: '*' any run, '?' one character, everything else literal.
bool GlobMatch(std::string_view pattern, std::string_view text);

// Version of the suite's definitions; bumped when a family's meaning changes.
inline constexpr const char* kSuiteVersion = "1";

}  // namespace warpwatch::catalog

#endif  // WARPWATCH_COMMON_CATALOG_CATALOG_H_
