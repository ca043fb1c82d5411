// The catalog listing of `warpwatch-worker list`.
#include "worker/cli/catalog_listing.h"

#include <algorithm>
#include <sstream>

#include "common/catalog/catalog.h"

namespace warpwatch::worker {
namespace {

std::string Join(const std::vector<int64_t>& values) {
  std::string out;
  for (int64_t v : values) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out;
}

void FormatAxis(const catalog::AxisInfo& axis, std::ostringstream& out) {
  out << "    " << axis.name << " = " << Join(axis.nightly) << "  (range " << axis.min << ".."
      << axis.max;
  if (axis.multiple_of > 1) out << ", multiple of " << axis.multiple_of;
  if (axis.power_of_two) out << ", power of two";
  if (!axis.variants.empty()) {
    out << ", variants ";
    for (size_t i = 0; i < axis.variants.size(); ++i) out << (i ? "," : "") << axis.variants[i];
  }
  out << ")";
  if (!axis.description.empty()) out << "  " << axis.description;
  out << "\n";
}

}  // namespace

std::string FormatCatalogListing(const std::vector<std::string>& implemented) {
  std::ostringstream out;
  for (const catalog::FamilyInfo& f : catalog::Families()) {
    bool built = std::find(implemented.begin(), implemented.end(), f.name) != implemented.end();
    out << f.name;
    if (!built) out << " (not built)";
    if (f.test_only) out << " (test only)";
    if (f.opt_in) out << " (opt-in: runs when a job names it)";
    if (f.node_scoped) out << " (node: every GPU at once; run --node)";
    out << "\n  guide: " << f.guide_section << "\n  lesson: " << f.lesson << "\n  variants:\n";
    for (const catalog::VariantInfo& v : f.variants) {
      out << "    " << v.name;
      if (v.recommended) out << " [recommended]";
      if (v.reference) out << " [reference]";
      if (!v.description.empty()) out << "  " << v.description;
      out << "\n";
    }
    out << "  axes:\n";
    for (const catalog::AxisInfo& a : f.axes) FormatAxis(a, out);
    if (!f.counters.empty()) {
      out << "  counters:";
      for (const std::string& c : f.counters) out << " " << c;
      out << "\n";
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace warpwatch::worker
