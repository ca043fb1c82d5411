// File: server/detect/false_alarm_control.cc
#include "server/detect/false_alarm_control.h"

#include <algorithm>
#include <cstdio>

namespace warpwatch::server::detect {

FalseAlarmControl ControlFalseAlarms(const std::vector<SeriesDecision*>& decisions,
                                     const DetectionConfig& config) {
  FalseAlarmControl control;
  std::vector<double> p;
  for (const SeriesDecision* d : decisions) {
    if (d->judged) p.push_back(d->time.p_value);
  }
  control.decisions = p.size();
  if (p.empty()) return control;
  std::sort(p.begin(), p.end());
  const double m = static_cast<double>(p.size());
  for (size_t i = p.size(); i > 0; --i) {
    const double threshold = config.false_alarm_rate * static_cast<double>(i) / m;
    if (p[i - 1] <= threshold) {
      control.cutoff = threshold;
      break;
    }
  }
  for (SeriesDecision* d : decisions) {
    if (!d->judged) continue;
    d->false_alarm_cutoff = control.cutoff;
    d->decisions_in_run = p.size();
    d->min_detectable_change =
        MinimumDetectableChange(d->noise, d->baseline_runs_used, p.size(), config);
    const bool flagged = d->verdict == Verdict::kSlower || d->verdict == Verdict::kFaster;
    if (!flagged || d->time.p_value <= control.cutoff) continue;
    char buffer[224];
    std::snprintf(buffer, sizeof(buffer),
                  "change %+.2f %% not significant over the run: p %.2g above the false-alarm "
                  "cutoff %.2g (Benjamini-Hochberg at q %.3g over %zu decisions)",
                  100 * d->time.change, d->time.p_value, control.cutoff, config.false_alarm_rate,
                  p.size());
    d->verdict = Verdict::kSame;
    d->blame = Blame::kNone;
    d->reason = buffer;
    ++control.demoted;
  }
  return control;
}

}  // namespace warpwatch::server::detect
