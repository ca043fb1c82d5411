// The catalog's lookups and glob matching; the family data lives in families/*.cc.
#include "common/catalog/catalog.h"

#include <string>

#include "common/catalog/detail/families.h"

namespace warpwatch::catalog {
namespace {

std::vector<FamilyInfo>* BuildFamilies() {
  using namespace detail;  // NOLINT(build/namespaces): the builders, in kernel-suite.md order.
  auto* families = new std::vector<FamilyInfo>{
      MemoryCoalescing(),
      MemoryAlignment(),
      MemoryVectorWidth(),
      MemoryAosSoa(),
      MemoryPitch2d(),
      MemoryLocal(),
      MemoryConstant(),
      MemoryReadonlyCache(),
      SharedBankConflicts(),
      SharedTranspose(),
      Reduce(),
      ControlDivergence(),
      ControlUnroll(),
      OccupancyBlockSize(),
      OccupancyRegisters(),
      OccupancySharedMemory(),
      LatencyIlp(),
      InstrArithmetic(),
      InstrIntrinsics(),
      InstrTrigRange(),
      InstrIntegerDivision(),
      InstrTypeConversion(),
      InstrSyncthreads(),
      TransferHostDevice(),
      ConcurrencyStreams(),
      DynamicParallelism(),
      MemoryAllocationChurn(),
      MemoryManaged(),
      Matmul(),
      InterconnectPeerCopy(),
      InterconnectPeerRead(),
      InterconnectNccl(),
      ExampleGridStride(),  // opt-in families after the suite
      TestingFault(),       // test-only families last
  };
  for (FamilyInfo& f : *families) f.counters.push_back(kAchievedOccupancyCounter);
  return families;
}

}  // namespace

bool AxisInfo::AppliesTo(std::string_view variant) const {
  if (variants.empty()) return true;
  for (const std::string& v : variants) {
    if (v == variant) return true;
  }
  return false;
}

Status AxisInfo::CheckValue(int64_t value) const {
  const std::string prefix = name + " " + std::to_string(value);
  if (value < min || value > max) {
    return InvalidArgumentError(prefix + " is outside [" + std::to_string(min) + ", " +
                                std::to_string(max) + "]");
  }
  if (multiple_of > 1 && value % multiple_of != 0) {
    return InvalidArgumentError(prefix + " is not a multiple of " + std::to_string(multiple_of));
  }
  if (power_of_two && (value <= 0 || (value & (value - 1)) != 0)) {
    return InvalidArgumentError(prefix + " is not a power of two");
  }
  return OkStatus();
}

const VariantInfo* FamilyInfo::FindVariant(std::string_view variant) const {
  for (const VariantInfo& v : variants) {
    if (v.name == variant) return &v;
  }
  return nullptr;
}

const AxisInfo* FamilyInfo::FindAxis(std::string_view axis) const {
  for (const AxisInfo& a : axes) {
    if (a.name == axis) return &a;
  }
  return nullptr;
}

const std::vector<FamilyInfo>& Families() {
  // Leaked on purpose: used during static initialisation and exit of other translation units.
  static const std::vector<FamilyInfo>* const families = BuildFamilies();
  return *families;
}

const FamilyInfo* FindFamily(std::string_view name) {
  for (const FamilyInfo& f : Families()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool GlobMatch(std::string_view pattern, std::string_view text) {
  // Iterative matcher: on a mismatch, let the last '*' absorb one more character.
  size_t p = 0, t = 0;
  size_t star = std::string_view::npos, star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace warpwatch::catalog
