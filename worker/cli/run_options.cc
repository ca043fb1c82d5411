// `warpwatch-worker run` flags -> JobSpec.
#include "worker/cli/run_options.h"

#include <cerrno>
#include <cstdlib>

#include "common/catalog/catalog.h"

namespace warpwatch::worker {
namespace {

StatusOr<int64_t> ParseInt(const std::string& text) {
  if (text.empty()) return InvalidArgumentError("empty value");
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end == nullptr || *end != '\0') {
    return InvalidArgumentError("\"" + text + "\" is not an integer");
  }
  return static_cast<int64_t>(v);
}

}  // namespace

StatusOr<v1::AxisOverride> ParseAxisFlag(const std::string& flag) {
  const std::string prefix = "--axis \"" + flag + "\": ";
  v1::AxisOverride axis;
  size_t eq = flag.find('=');
  if (eq == std::string::npos) return InvalidArgumentError(prefix + "expected [FAMILY:]NAME=V1,V2");
  std::string name = flag.substr(0, eq);
  size_t colon = name.rfind(':');
  if (colon != std::string::npos) {
    axis.set_family(name.substr(0, colon));
    name = name.substr(colon + 1);
  }
  if (name.empty()) return InvalidArgumentError(prefix + "empty axis name");
  axis.set_axis(name);
  std::string values = flag.substr(eq + 1);
  size_t start = 0;
  while (start <= values.size()) {
    size_t comma = values.find(',', start);
    std::string item = values.substr(start, comma == std::string::npos ? std::string::npos
                                                                       : comma - start);
    StatusOr<int64_t> v = ParseInt(item);
    if (!v.ok()) return InvalidArgumentError(prefix + v.status().message());
    axis.add_values(*v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return axis;
}

bool NamesOnlyNodeFamilies(const std::vector<std::string>& families) {
  if (families.empty()) return false;
  for (const std::string& name : families) {
    const catalog::FamilyInfo* f = catalog::FindFamily(name);
    if (f == nullptr || !f->node_scoped) return false;
  }
  return true;
}

StatusOr<v1::JobSpec> BuildJobSpec(const RunOptions& o) {
  v1::JobSpec spec;
  if (o.families.empty()) {
    spec.add_families("*");
  } else {
    for (const std::string& f : o.families) spec.add_families(f);
  }
  spec.set_node_scoped(o.node || NamesOnlyNodeFamilies(o.families));
  for (const std::string& v : o.variants) spec.add_variants(v);
  for (const std::string& a : o.axes) {
    ASSIGN_OR_RETURN(v1::AxisOverride axis, ParseAxisFlag(a));
    *spec.add_axes() = axis;
  }
  if (o.max_noise_percent < 0) return InvalidArgumentError("--max-noise must be positive");
  if (o.min_samples < 0) return InvalidArgumentError("--min-samples must be positive");
  if (o.max_samples < 0) return InvalidArgumentError("--max-samples must be positive");
  if (o.point_timeout_seconds < 0) return InvalidArgumentError("--timeout must be positive");
  if (o.min_time_seconds < 0) return InvalidArgumentError("--min-time must be positive");
  if (o.sample_groups < 0 || o.sample_groups > 16) {
    return InvalidArgumentError("--sample-groups must be between 1 and 16");
  }
  v1::MeasurementSettings* m = spec.mutable_measurement();
  m->set_target_noise(o.max_noise_percent / 100.0);
  m->set_min_samples(o.min_samples);
  m->set_max_samples(o.max_samples);
  m->set_point_timeout_seconds(o.point_timeout_seconds);
  m->set_min_gpu_time_seconds(o.min_time_seconds);
  m->set_sample_groups(o.sample_groups);
  if (o.no_l2_flush) m->set_l2_flush(false);
  m->set_collect_counters(o.counters);
  return spec;
}

}  // namespace warpwatch::worker
