// The kernel catalog: CUDA-free description of every family of the guide's suite (name, guide
// section, lesson, variants, axes, counters). The server validates jobs against it without linking
// CUDA; the worker's CUDA implementations (kernels/) register against the same names.
#ifndef WARPWATCH_COMMON_CATALOG_CATALOG_H_
#define WARPWATCH_COMMON_CATALOG_CATALOG_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::catalog {

// One axis of a family's parameter space. Values are integers; every value of a job must lie in
// [min, max], be a multiple of `multiple_of`, and be a power of two when `power_of_two` is set.
// `block_size` (threads per block) and `n` (problem size in elements) mean the same in every family.
// An axis may apply to some variants only (`variants`): points of the other variants do not carry
// it, so they are not multiplied over its values and their canonical key omits it (e.g. `stride`
// exists only for memory.coalescing's `strided` variant).
struct AxisInfo {
  std::string name;                // snake_case
  std::string description;
  std::vector<int64_t> nightly;    // small default sweep for the nightly suite
  int64_t min = 0;
  int64_t max = 0;
  int64_t multiple_of = 1;
  bool power_of_two = false;
  std::vector<std::string> variants;  // variants the axis applies to; empty = all

  // True when points of `variant` carry this axis.
  bool AppliesTo(std::string_view variant) const;
  // OK when `value` is allowed; otherwise INVALID_ARGUMENT whose message names the axis and the
  // rule, e.g. "block_size 1000 is not a multiple of 32" (callers prefix the field).
  Status CheckValue(int64_t value) const;
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
  // CUPTI metrics (as ncu spells them) that judge the family. Families() appends
  // kAchievedOccupancyCounter to every family, so the engine needs no global list; where the timed
  // region launches no kernel of ours (cudaMemcpy, transfers) the engine reports it as absent.
  std::vector<std::string> counters;
  bool test_only = false;          // exists for tests (a faulting family); not in the nightly suite
  // Runs only where a job names it: no glob selects it, so it is not in the nightly suite (`*`).
  // For families a user adds to try out before they join the suite (docs/adding-a-family.md).
  bool opt_in = false;
  // The family measures the node, not one GPU: its points use every GPU of the worker at once
  // (GPU pairs, collectives). A job of such a family runs once per node, on the node's first GPU
  // with every GPU visible; on a one-GPU node its points answer "not applicable" (SKIPPED).
  bool node_scoped = false;
  // What a sample's time covers when it is more than the kernels Run() launches (copies,
  // allocations, page migration, device-side launches); empty for kernel-only families. Such a
  // family's event time differs from its kernels' CUPTI time by design, so the engine does not
  // flag the difference (Measurement.times_disagree) and the profiler cross-check leaves it out.
  std::string timed_region;

  const VariantInfo* FindVariant(std::string_view variant) const;
  const AxisInfo* FindAxis(std::string_view axis) const;
};

// Achieved occupancy, collected for every family (see FamilyInfo::counters).
inline constexpr const char* kAchievedOccupancyCounter =
    "sm__warps_active.avg.pct_of_peak_sustained_active";

// Every family: the suite's in kernel-suite.md order, then opt-in families, then test-only ones. Immutable; thread-safe.
// Built on first use (safe to call during other translation units' static initialisation) and
// never destroyed.
const std::vector<FamilyInfo>& Families();

// nullptr when no family has that name.
const FamilyInfo* FindFamily(std::string_view name);

// Shell-style glob: '*' any run, '?' one character, everything else literal.
bool GlobMatch(std::string_view pattern, std::string_view text);

// Version of the suite's definitions; bumped when a family's meaning changes.
inline constexpr const char* kSuiteVersion = "1";

}  // namespace warpwatch::catalog

#endif  // WARPWATCH_COMMON_CATALOG_CATALOG_H_
