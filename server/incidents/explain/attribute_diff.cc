// File: server/incidents/explain/attribute_diff.cc
#include "server/incidents/explain/attribute_diff.h"

#include <cmath>
#include <functional>
#include <set>
#include <string>

#include "server/incidents/explain/number_text.h"

namespace warpwatch::server::incidents {
namespace {

using AttrMeasurement = v1::Measurement;

std::string LimiterName(v1::OccupancyLimiter limiter) {
  switch (limiter) {
    case v1::OCCUPANCY_LIMITER_WARPS:
      return "warps";
    case v1::OCCUPANCY_LIMITER_REGISTERS:
      return "registers";
    case v1::OCCUPANCY_LIMITER_SHARED_MEMORY:
      return "shared memory";
    case v1::OCCUPANCY_LIMITER_BLOCKS:
      return "blocks";
    default:
      return "unknown";
  }
}

// An attribute compared exactly, by its text.
struct ExactAttribute {
  const char* name;
  std::function<std::string(const AttrMeasurement&)> read;
};

const std::vector<ExactAttribute>& ExactAttributes() {
  static const std::vector<ExactAttribute> attributes = {
      {"registers_per_thread",
       [](const AttrMeasurement& m) {
         return std::to_string(m.occupancy().registers_per_thread());
       }},
      {"local_bytes_per_thread",
       [](const AttrMeasurement& m) {
         return std::to_string(m.occupancy().local_bytes_per_thread());
       }},
      {"static_shared_bytes",
       [](const AttrMeasurement& m) {
         return std::to_string(m.occupancy().static_shared_bytes());
       }},
      {"dynamic_shared_bytes",
       [](const AttrMeasurement& m) {
         return std::to_string(m.occupancy().dynamic_shared_bytes());
       }},
      {"block_size",
       [](const AttrMeasurement& m) { return std::to_string(m.occupancy().block_size()); }},
      {"grid_size",
       [](const AttrMeasurement& m) { return std::to_string(m.occupancy().grid_size()); }},
      {"active_blocks_per_sm",
       [](const AttrMeasurement& m) {
         return std::to_string(m.occupancy().active_blocks_per_sm());
       }},
  };
  return attributes;
}

std::string JoinValues(const std::set<std::string>& values) {
  std::string out;
  for (const std::string& v : values) out += (out.empty() ? "" : " | ") + v;
  return out;
}

v1::AttributeDifference Difference(const std::string& name, const std::string& baseline,
                                   const std::string& now) {
  v1::AttributeDifference d;
  d.set_attribute(name);
  d.set_baseline(baseline);
  d.set_new_value(now);
  return d;
}

// A ratio in [0, 1] that moved beyond `points` (fractions of 1) of every baseline value.
void AddRatio(const std::string& name, const std::vector<double>& baseline, double now,
              double points, std::vector<v1::AttributeDifference>& out) {
  if (baseline.empty()) return;
  bool moved = true;
  std::set<std::string> texts;
  for (double b : baseline) {
    if (std::fabs(now - b) <= points) moved = false;
    texts.insert(PercentText(b));
  }
  if (moved) out.push_back(Difference(name, JoinValues(texts), PercentText(now)));
}

}  // namespace

std::vector<v1::AttributeDifference> DiffAttributes(const std::vector<AttrMeasurement>& baseline,
                                                    const AttrMeasurement& now) {
  std::vector<v1::AttributeDifference> out;
  std::vector<const AttrMeasurement*> with_occupancy;
  for (const AttrMeasurement& m : baseline) {
    if (m.has_occupancy()) with_occupancy.push_back(&m);
  }
  if (with_occupancy.empty() || !now.has_occupancy()) return out;
  for (const ExactAttribute& a : ExactAttributes()) {
    std::set<std::string> values;
    for (const AttrMeasurement* m : with_occupancy) values.insert(a.read(*m));
    const std::string value = a.read(now);
    if (values.size() == 1 && *values.begin() == value) continue;
    if (values.count(value) > 0 && values.size() > 1) continue;  // the baseline varies too
    out.push_back(Difference(a.name, JoinValues(values), value));
  }
  std::vector<double> theoretical, achieved;
  std::set<std::string> limiters;
  for (const AttrMeasurement* m : with_occupancy) {
    theoretical.push_back(m->occupancy().theoretical());
    if (m->occupancy().has_achieved()) achieved.push_back(m->occupancy().achieved());
    limiters.insert(LimiterName(m->occupancy().limiter()));
  }
  AddRatio("theoretical_occupancy", theoretical, now.occupancy().theoretical(), 0.005, out);
  const std::string limiter = LimiterName(now.occupancy().limiter());
  if (limiters.count(limiter) == 0) {
    out.push_back(Difference("occupancy_limiter", JoinValues(limiters), limiter));
  }
  if (now.occupancy().has_achieved()) {
    AddRatio("achieved_occupancy", achieved, now.occupancy().achieved(), 0.02, out);
  }
  std::set<std::string> names;
  for (const AttrMeasurement* m : with_occupancy) names.insert(m->kernel_name());
  if (!now.kernel_name().empty() && names.count(now.kernel_name()) == 0) {
    out.push_back(Difference("kernel_name", JoinValues(names), now.kernel_name()));
  }
  return out;
}

std::string AttributeWords(const v1::AttributeDifference& d) {
  const std::string& a = d.attribute();
  const std::string moved = d.baseline() + " -> " + d.new_value();
  if (a == "registers_per_thread") return "registers " + moved + " per thread";
  if (a == "local_bytes_per_thread") return "local (spill) bytes " + moved + " per thread";
  if (a == "static_shared_bytes") return "static shared memory " + moved + " bytes";
  if (a == "dynamic_shared_bytes") return "dynamic shared memory " + moved + " bytes";
  if (a == "block_size") return "block size " + moved;
  if (a == "grid_size") return "grid size " + moved;
  if (a == "active_blocks_per_sm") return "active blocks per SM " + moved;
  if (a == "theoretical_occupancy") return "theoretical occupancy " + moved;
  if (a == "occupancy_limiter")
    return "occupancy limiter became " + d.new_value() + " (was " + d.baseline() + ")";
  if (a == "achieved_occupancy") return "achieved occupancy " + moved;
  if (a == "kernel_name") return "kernel " + moved;
  return a + " " + moved;
}

}  // namespace warpwatch::server::incidents
