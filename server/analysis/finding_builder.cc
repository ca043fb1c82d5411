// File: server/analysis/finding_builder.cc
#include "server/analysis/finding_builder.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace warpwatch::server::analysis {
namespace {

std::string Format(const char* format, double a, double b = 0, double c = 0, double d = 0,
                   double e = 0) {
  char buffer[512];
  std::snprintf(buffer, sizeof(buffer), format, a, b, c, d, e);
  return buffer;
}

// "p <= cutoff (Benjamini-Hochberg at q over m decisions)" or the single-decision level.
std::string SignificanceText(const detect::SeriesDecision& decision,
                             const detect::DetectionConfig& config) {
  if (decision.false_alarm_cutoff) {
    return Format("p <= %.3g (Benjamini-Hochberg at q %.3g over the run's %.0f decisions)",
                  *decision.false_alarm_cutoff, config.false_alarm_rate,
                  static_cast<double>(decision.decisions_in_run));
  }
  return Format("p <= %.3g", config.false_alarm_rate);
}

std::string MethodText(const detect::SeriesDecision& decision,
                       const detect::DetectionConfig& config) {
  std::string method = "noise_model: SLOWER/FASTER when " + SignificanceText(decision, config);
  method += Format(
      " and |change| >= %.2f %% against the median of this GPU's last %.0f good runs (N %.0f, at "
      "least %.0f); p two-sided, Student t on the change over ",
      config.min_relative_change * 100, static_cast<double>(decision.baseline_runs_used),
      static_cast<double>(config.baseline_runs), static_cast<double>(config.min_baseline_runs));
  method += detect::NoiseText(decision.noise);
  method += Format(
      "; cycles (time x SM clock) judged alike when the clocks differ by more than %.1f %%; "
      "Mann-Whitney U p on raw samples is evidence only",
      config.clock_tolerance * 100);
  return method;
}

std::string PinnedMethodText(const detect::SeriesDecision& decision, const PinUsed& pin,
                             const detect::DetectionConfig& config) {
  std::string method =
      std::string(kMethodPinnedPrefix) + " baseline pin " + std::to_string(pin.pin_id) + " (runs";
  for (int64_t id : decision.baseline_run_ids) method += " " + std::to_string(id);
  method += "): SLOWER/FASTER when " + SignificanceText(decision, config);
  method += Format(" and |change| >= %.2f %% against the median of this GPU's pinned runs, ",
                   config.min_relative_change * 100);
  method += "spread from " + pin.spread;
  method += Format(
      "; cycles (time x SM clock) judged alike when the clocks differ by more than %.1f %%; "
      "Mann-Whitney U p against the pinned runs' samples is evidence only",
      config.clock_tolerance * 100);
  return method;
}

// The first event's note: why the finding starts in `state`.
std::string StartNote(const std::string& state, const detect::SeriesDecision& decision) {
  if (state == kStateDismissed) {
    return Format(
               "blamed on the GPU, not the code: SM clock %.0f -> %.0f MHz, cycles within the "
               "series' noise; not confirmed, not opened",
               decision.baseline_sm_clock_mhz, decision.new_sm_clock_mhz) +
           (decision.reason.empty() ? "" : " (" + decision.reason + ")");
  }
  if (state == kStateOpen) {
    return "uploaded run: no worker to re-run it on, opened without confirmation";
  }
  return "suspected; a confirmation run on the same device decides";
}

}  // namespace

std::optional<Finding> FindingFromDecision(const ClaimedRun& run, const RunCase& run_case,
                                           const detect::SeriesDecision& decision,
                                           const detect::DetectionConfig& config,
                                           const PinUsed* pin) {
  if (decision.verdict != detect::Verdict::kSlower &&
      decision.verdict != detect::Verdict::kFaster) {
    return std::nullopt;
  }
  Finding f;
  f.kind = decision.verdict == detect::Verdict::kSlower ? kKindRegression : kKindImprovement;
  if (decision.blame == detect::Blame::kEnvironment) {
    f.state = kStateDismissed;
  } else if (run.job_id == 0) {
    f.state = kStateOpen;
  } else {
    f.state = kStateSuspected;
  }
  f.series_id = run_case.series_id;
  f.case_canonical = run_case.case_canonical;
  f.family = run_case.family;
  f.variant = run_case.variant;
  f.gpu_model = run.gpu_model;
  f.device_uuid = run.device_uuid;
  f.measurement_id = run_case.measurement_id;
  f.baseline_run_ids = decision.baseline_run_ids;
  f.baseline_median_seconds = decision.time.baseline;
  f.new_median_seconds = decision.time.value;
  f.change = decision.time.change;
  f.p_value = decision.u_test_p_value;
  if (std::isfinite(decision.time.z)) f.z = decision.time.z;
  if (decision.cycles) f.cycles_change = decision.cycles->change;
  f.baseline_sm_clock_mhz = decision.baseline_sm_clock_mhz;
  f.new_sm_clock_mhz = decision.new_sm_clock_mhz;
  f.blame = detect::BlameName(decision.blame);
  f.method =
      pin != nullptr ? PinnedMethodText(decision, *pin, config) : MethodText(decision, config);
  if (decision.judged) {
    f.min_detectable_change = decision.min_detectable_change;
    f.noise_sigma = decision.noise.sigma_relative;
  }
  f.note = StartNote(f.state, decision);
  return f;
}

std::vector<Finding> FindingsFromFleet(const ClaimedRun& run, const RunCase& run_case,
                                       const detect::FleetView& view,
                                       const detect::FleetConfig& config) {
  std::vector<Finding> out;
  if (!view.judged) return out;
  for (const detect::DeviceJudgement& device : view.devices) {
    if (!device.outlier) continue;
    const bool own = device.run_id == run.run_id;
    Finding f;
    f.run_id = own ? 0 : device.run_id;
    f.kind = kKindOutlier;
    f.state = kStateOpen;
    f.series_id = run_case.series_id;
    f.case_canonical = run_case.case_canonical;
    f.family = run_case.family;
    f.variant = run_case.variant;
    f.gpu_model = run.gpu_model;
    f.device_uuid = device.device_uuid;
    f.measurement_id = own ? run_case.measurement_id : 0;  // 0: the store looks it up
    for (const detect::DeviceJudgement& other : view.devices) {
      if (other.run_id != device.run_id) f.baseline_run_ids.push_back(other.run_id);
    }
    f.baseline_median_seconds = device.others_median;
    f.new_median_seconds = device.median_seconds;
    f.change = device.change;
    f.z = device.z;
    f.new_sm_clock_mhz = own ? run_case.point.sm_clock_mhz : 0;
    f.method = Format(
        "fleet: this device's median against the other %.0f good devices of the model measured "
        "the same night (its schedule run, or the same software within a day): outlier when "
        "|z| >= %.2f (median and scaled MAD of the others, floor %.2f %%) and |change| >= %.2f %%",
        static_cast<double>(view.devices.size() - 1), config.z_threshold,
        config.mad_floor_relative * 100, config.min_relative_change * 100);
    f.note = std::string("fleet outlier (") +
             (device.direction == detect::Verdict::kSlower ? "slower" : "faster") +
             " than the other devices of its model that night)" +
             (own ? ""
                  : "; found when run " + std::to_string(run.run_id) + " of " + run.device_uuid +
                        " joined the night");
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace warpwatch::server::analysis
