// File: server/incidents/explain/cause_ranking.cc
#include "server/incidents/explain/cause_ranking.h"

#include <algorithm>
#include <string>
#include <vector>

#include "server/incidents/explain/attribute_diff.h"
#include "server/incidents/explain/number_text.h"

namespace warpwatch::server::incidents {
namespace {

std::string Values(const v1::EnvironmentDifference& d) {
  std::string base;
  for (const std::string& v : d.baseline()) {
    base += (base.empty() ? "" : " | ") + (v.empty() ? std::string("(none)") : v);
  }
  return base + " -> " + (d.new_value().empty() ? std::string("(none)") : d.new_value());
}

std::string Differences(const v1::Explanation& e, v1::DifferenceArea area) {
  std::string out;
  for (const v1::EnvironmentDifference& d : e.environment()) {
    if (d.area() == area) out += (out.empty() ? "" : "; ") + d.field() + " " + Values(d);
  }
  return out;
}

void Add(v1::Explanation* e, v1::CauseClass cause_class, const std::string& cause, double score,
         const std::vector<std::string>& evidence) {
  v1::LikelyCause* c = e->add_causes();
  c->set_cause_class(cause_class);
  c->set_cause(cause);
  c->set_score(score);
  for (const std::string& line : evidence) c->add_evidence(line);
}

std::string TimeWords(const v1::TimeSplit& t) {
  if (!t.has_kernel_change()) return "event time " + ChangeText(t.time_change());
  return "event time " + ChangeText(t.time_change()) + ", kernels' own time " +
         ChangeText(t.kernel_change());
}

std::string CycleWords(const v1::ClockSplit& c) {
  std::string out = "time " + ChangeText(c.time_change());
  if (c.has_cycles_change()) out += ", cycles " + ChangeText(c.cycles_change());
  if (c.baseline_sm_clock_mhz() > 0 && c.new_sm_clock_mhz() > 0) {
    out += ", SM clock " + NumberText(c.baseline_sm_clock_mhz()) + " -> " +
           NumberText(c.new_sm_clock_mhz()) + " MHz";
  }
  return out;
}

// A condition recorded as a label (the worker's test-only contention generator's): what ran beside
// the suite, not a reading.
bool HasConditionLabel(const v1::Explanation& e) {
  for (const v1::EnvironmentDifference& d : e.environment()) {
    if (d.area() == v1::DIFFERENCE_AREA_CONDITIONS && d.field().rfind("labels.", 0) == 0) {
      return true;
    }
  }
  return false;
}

// The links between the node's GPUs that differ ("gpu_links.0-1 NV18 -> NV17"), "" when none.
std::string LinkChanges(const v1::Explanation& e) {
  std::string out;
  for (const v1::EnvironmentDifference& d : e.environment()) {
    if (d.area() == v1::DIFFERENCE_AREA_DEVICE && d.field().rfind("gpu_links.", 0) == 0) {
      out += (out.empty() ? "" : "; ") + d.field() + " " + Values(d);
    }
  }
  return out;
}

}  // namespace

std::string SoftwareChange(const v1::Explanation& explanation) {
  return Differences(explanation, v1::DIFFERENCE_AREA_SOFTWARE);
}

void RankCauses(v1::Explanation* e) {
  e->clear_causes();
  e->clear_ruled_out();
  std::vector<std::string> attributes;
  for (const v1::AttributeDifference& d : e->attributes()) attributes.push_back(AttributeWords(d));
  std::vector<std::string> counters;
  for (int i = 0; i < e->counters_size() && i < 3; ++i) {
    const v1::CounterDifference& c = e->counters(i);
    counters.push_back(c.counter() + " " + NumberText(c.baseline()) + " -> " +
                       NumberText(c.new_value()) +
                       (c.baseline() == 0 ? std::string(" (from 0)")
                                          : " (" + ChangeText(c.change()) + ")"));
  }
  const v1::ClockSplit& clocks = e->clocks();
  const std::string software = SoftwareChange(*e);

  if (clocks.verdict() == "throttled") {
    Add(e, v1::CAUSE_CLASS_ENVIRONMENT, "the GPU throttled during the new run", 5,
        {"throttled samples " + PercentText(clocks.baseline_throttled_fraction()) + " -> " +
             PercentText(clocks.new_throttled_fraction()),
         CycleWords(clocks)});
  } else if (clocks.verdict() == "clock") {
    Add(e, v1::CAUSE_CLASS_ENVIRONMENT, "the GPU's clock moved, the work did not", 5,
        {CycleWords(clocks)});
  }
  if (!software.empty()) {
    std::vector<std::string> evidence = attributes;
    evidence.insert(evidence.end(), counters.begin(), counters.end());
    if (clocks.verdict() == "cycles") evidence.push_back(CycleWords(clocks));
    if (e->time().where() == "kernel") evidence.push_back(TimeWords(e->time()));
    Add(e, v1::CAUSE_CLASS_SOFTWARE, software,
        4 + (attributes.empty() ? 0 : 1) + (clocks.verdict() == "cycles" ? 0.5 : 0), evidence);
  } else if (!attributes.empty()) {
    std::vector<std::string> evidence = attributes;
    evidence.insert(evidence.end(), counters.begin(), counters.end());
    Add(e, v1::CAUSE_CLASS_SOFTWARE,
        "the kernel's compiled code changed (no recorded software field differs)", 3, evidence);
  }
  // A pair of the node's GPUs joined otherwise than in the baseline (a lost NVLink, a fall back to
  // PCIe) is the hardware of this node: ranked above everything but a software change.
  const std::string links = LinkChanges(*e);
  if (!links.empty()) {
    Add(e, v1::CAUSE_CLASS_ONE_GPU, "the links between the node's GPUs changed: " + links, 4.5,
        {TimeWords(e->time()), CycleWords(clocks)});
  }
  const std::string settings = Differences(*e, v1::DIFFERENCE_AREA_CLOCKS);
  const std::string conditions = Differences(*e, v1::DIFFERENCE_AREA_CONDITIONS);
  const bool readings_only = settings.empty() && !conditions.empty() && !HasConditionLabel(*e);
  if (!settings.empty() || (!conditions.empty() && !readings_only)) {
    std::vector<std::string> evidence;
    if (!settings.empty()) evidence.push_back(settings);
    if (!conditions.empty()) evidence.push_back(conditions);
    Add(e, v1::CAUSE_CLASS_ENVIRONMENT, "the GPU's clocks or conditions differ", 2, evidence);
  }
  if (e->time().where() == "around_kernel") {
    Add(e, v1::CAUSE_CLASS_UNKNOWN,
        "the time around the kernels moved (launch overhead, gaps, copies or host work), the "
        "kernels' own time did not",
        1.5, {TimeWords(e->time())});
  }
  if (e->causes_size() == 0) {
    std::vector<std::string> evidence = counters;
    evidence.push_back(CycleWords(clocks));
    if (e->time().where() == "kernel") evidence.push_back(TimeWords(e->time()));
    Add(e, v1::CAUSE_CLASS_UNKNOWN,
        "nothing recorded differs: the GPU itself, or something the store does not keep", 1,
        evidence);
  }
  if (readings_only) {
    Add(e, v1::CAUSE_CLASS_ENVIRONMENT,
        "the GPU's temperature or power readings differ (they also swing between runs of a "
        "healthy GPU)",
        0.5, {conditions});
  }
  std::stable_sort(
      e->mutable_causes()->begin(), e->mutable_causes()->end(),
      [](const v1::LikelyCause& a, const v1::LikelyCause& b) { return a.score() > b.score(); });
  if (software.empty()) {
    e->add_ruled_out(
        "software: driver, CUDA runtime, worker version, labels (git sha) and built "
        "architectures equal");
  }
  if (attributes.empty()) {
    e->add_ruled_out("kernel attributes: registers, spills, shared memory and occupancy equal");
  }
  if (clocks.verdict() == "cycles") {
    e->add_ruled_out("clocks: the cycles moved with the time (not a slower clock)");
  }
  const v1::LikelyCause& top = e->causes(0);
  e->set_summary(top.cause() + (top.evidence().empty() ? "" : ": " + top.evidence(0)));
}

}  // namespace warpwatch::server::incidents
