// File: server/incidents/explain/counter_diff.cc
#include "server/incidents/explain/counter_diff.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace warpwatch::server::incidents {

CounterDiff DiffCounters(const std::vector<v1::Measurement>& baseline, const v1::Measurement& now) {
  CounterDiff diff;
  std::map<std::string, std::pair<double, int>> sums;  // counter -> (sum, measurements)
  for (const v1::Measurement& m : baseline) {
    for (const auto& [name, value] : m.counters()) {
      auto& [sum, n] = sums[name];
      sum += value;
      ++n;
    }
  }
  if (sums.empty()) {
    diff.note =
        "the baseline runs have no counters (nightly runs skip the counter pass): no counter "
        "diff";
    return diff;
  }
  if (now.counters().empty()) {
    diff.note = "the new run has no counters" +
                (now.counters_note().empty() ? std::string() : " (" + now.counters_note() + ")") +
                ": no counter diff";
    return diff;
  }
  bool shared = false;
  for (const auto& [name, value] : now.counters()) {
    auto it = sums.find(name);
    if (it == sums.end()) continue;
    shared = true;
    const double base = it->second.first / it->second.second;
    const double change = base != 0 ? value / base - 1 : 0;
    if (base == 0 ? value == 0 : std::fabs(change) < kCounterChangeListed) continue;
    v1::CounterDifference d;
    d.set_counter(name);
    d.set_baseline(base);
    d.set_new_value(value);
    d.set_change(change);
    diff.counters.push_back(std::move(d));
  }
  // A counter that rose from 0 has no relative change (0 by the proto's rule) but moved the most.
  std::sort(diff.counters.begin(), diff.counters.end(),
            [](const v1::CounterDifference& a, const v1::CounterDifference& b) {
              if ((a.baseline() == 0) != (b.baseline() == 0)) return a.baseline() == 0;
              return std::fabs(a.change()) > std::fabs(b.change());
            });
  if (!shared) {
    diff.note = "the baseline and the new run collected different counters: no counter diff";
  } else if (diff.counters.empty()) {
    diff.note = "counters equal within 2 %";
  }
  return diff;
}

}  // namespace warpwatch::server::incidents
