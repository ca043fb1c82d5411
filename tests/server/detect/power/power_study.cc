// Simulated and leave-one-out detection power.
#include "tests/server/detect/power/power_study.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>

#include "server/detect/baseline.h"
#include "server/detect/false_alarm_control.h"
#include "server/detect/noise_model.h"
#include "server/detect/robust_stats.h"
#include "server/detect/series_decision.h"

namespace warpwatch::server::detect::power {
namespace {

constexpr double kClockMhz = 1980;
// The bar: +3 % must be caught on the cases whose minimum detectable change is this or
// less.
constexpr double kQuietMdc = 0.02;

RunPoint Good(double median, double clock_mhz) {
  RunPoint p;
  p.median_seconds = median;
  p.sm_clock_mhz = clock_mhz;
  p.ok = true;
  p.verified = true;
  return p;
}

// One case of a run to judge: its baseline, the model's noise estimate, the new point.
struct CaseInput {
  size_t case_index = 0;
  std::vector<RunPoint> baseline;
  NoiseEstimate model;
  RunPoint candidate;  // no samples
};

// Tallies of one study.
struct Tally {
  long runs = 0, runs_with_alarm = 0;
  long decisions = 0, slower = 0, flagged = 0, unsure = 0, environment = 0;
  std::vector<long> detected;
  long quiet_decisions = 0;  // A/A decisions whose series' MDC <= kQuietMdc
  std::vector<long> quiet_detected;
  std::map<size_t, std::vector<double>> mdc_by_case;
  std::vector<std::pair<size_t, std::string>> false_alarms;  // (case, text)
};

// Judges every case of one run as it is, each slowdown applied to the whole run, and the whole
// run's clock dropped, each variant under the run-wide false-alarm control as the server does.
void JudgeRun(const std::vector<CaseInput>& inputs, const DetectionConfig& config,
              const PowerOptions& options, const std::string& run_name, Tally* tally) {
  const size_t m = inputs.size();
  auto variant = [&](double time_factor, double clock_mhz) {
    std::vector<SeriesDecision> decisions;
    decisions.reserve(m);
    for (const CaseInput& in : inputs) {
      RunPoint p = in.candidate;
      p.median_seconds *= time_factor;
      if (clock_mhz > 0) p.sm_clock_mhz = clock_mhz;
      decisions.push_back(DecideSeries(p, in.baseline, config, in.model, m));
    }
    std::vector<SeriesDecision*> pointers;
    for (SeriesDecision& d : decisions) pointers.push_back(&d);
    ControlFalseAlarms(pointers, config);
    return decisions;
  };
  ++tally->runs;
  const std::vector<SeriesDecision> aa = variant(1, 0);
  bool alarm = false;
  std::vector<bool> quiet(m, false);
  for (size_t i = 0; i < m; ++i) {
    const SeriesDecision& d = aa[i];
    ++tally->decisions;
    if (d.verdict == Verdict::kSlower) ++tally->slower;
    if (d.verdict == Verdict::kSlower || d.verdict == Verdict::kFaster) {
      ++tally->flagged;
      alarm = true;
      char text[160];
      std::snprintf(text, sizeof(text), " (%s): %+.2f %%, p %.2g, %s", run_name.c_str(),
                    100 * d.time.change, d.time.p_value, VerdictName(d.verdict));
      tally->false_alarms.emplace_back(inputs[i].case_index, text);
    }
    if (d.verdict == Verdict::kUnsure) ++tally->unsure;
    if (d.judged) {
      tally->mdc_by_case[inputs[i].case_index].push_back(d.min_detectable_change);
      quiet[i] = d.min_detectable_change <= kQuietMdc;
      if (quiet[i]) ++tally->quiet_decisions;
    }
  }
  if (alarm) ++tally->runs_with_alarm;
  for (size_t s = 0; s < options.slowdowns.size(); ++s) {
    const std::vector<SeriesDecision> slowed = variant(1 + options.slowdowns[s], 0);
    for (size_t i = 0; i < m; ++i) {
      if (slowed[i].verdict != Verdict::kSlower) continue;
      ++tally->detected[s];
      if (quiet[i]) ++tally->quiet_detected[s];
    }
  }
  // The clock drop: each point from its own clock to the drop, cycles unchanged.
  std::vector<SeriesDecision> dropped;
  {
    std::vector<SeriesDecision> decisions;
    for (const CaseInput& in : inputs) {
      RunPoint p = in.candidate;
      const double clock = p.sm_clock_mhz > 0 ? p.sm_clock_mhz : kClockMhz;
      p.median_seconds *= clock / options.clock_drop_to_mhz;
      p.sm_clock_mhz = options.clock_drop_to_mhz;
      decisions.push_back(DecideSeries(p, in.baseline, config, in.model, m));
    }
    std::vector<SeriesDecision*> pointers;
    for (SeriesDecision& d : decisions) pointers.push_back(&d);
    ControlFalseAlarms(pointers, config);
    dropped = std::move(decisions);
  }
  for (const SeriesDecision& d : dropped) {
    if (d.verdict == Verdict::kSlower && d.blame == Blame::kEnvironment) ++tally->environment;
  }
}

PowerFigures Figures(const std::string& source, const Tally& tally, const PowerOptions& options,
                     const std::vector<std::string>& case_keys) {
  PowerFigures f;
  f.source = source;
  f.runs = tally.runs;
  f.runs_with_false_alarm = tally.runs_with_alarm;
  f.decisions = tally.decisions;
  const double n = tally.decisions > 0 ? static_cast<double>(tally.decisions) : NAN;
  f.false_alarm_rate = static_cast<double>(tally.slower) / n;
  f.any_flag_rate = static_cast<double>(tally.flagged) / n;
  f.unsure_rate = static_cast<double>(tally.unsure) / n;
  f.slowdowns = options.slowdowns;
  for (long d : tally.detected) f.detection_rate.push_back(static_cast<double>(d) / n);
  f.quiet_decisions = tally.quiet_decisions;
  const double q = tally.quiet_decisions > 0 ? static_cast<double>(tally.quiet_decisions) : NAN;
  for (long d : tally.quiet_detected) f.quiet_detection_rate.push_back(static_cast<double>(d) / q);
  f.clock_drop_environment_rate = static_cast<double>(tally.environment) / n;
  for (const auto& [c, text] : tally.false_alarms) {
    f.false_alarm_cases.push_back((c < case_keys.size() ? case_keys[c] : "?") + text);
  }
  for (const auto& [c, mdcs] : tally.mdc_by_case) {
    f.case_mdc.push_back({c < case_keys.size() ? case_keys[c] : "?", Median(mdcs)});
  }
  std::sort(f.case_mdc.begin(), f.case_mdc.end(),
            [](const CaseMdc& a, const CaseMdc& b) { return a.mdc > b.mdc; });
  return f;
}

}  // namespace

PowerFigures SimulatePower(const std::vector<double>& case_medians, const DetectionConfig& config,
                           const PowerOptions& options) {
  std::mt19937_64 rng(options.seed);
  std::mt19937_64 sigma_rng(options.seed + 0x9e3779b97f4a7c15ULL);
  std::normal_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> sigma_unit(0.0, 1.0);
  Tally tally;
  tally.detected.assign(options.slowdowns.size(), 0);
  tally.quiet_detected.assign(options.slowdowns.size(), 0);
  const int per_sigma = std::max(1, options.trials_per_case / std::max(1, options.sigma_draws));
  std::vector<double> sigmas(case_medians.size(), 0);
  // One trial is one simulated run of every case; the model's estimate of each case's sigma is
  // what 2 x model_noise_weight pairs of a fleet would give (its true sigma, sampled).
  for (int t = 0; t < options.trials_per_case; ++t) {
    std::vector<CaseInput> inputs;
    for (size_t c = 0; c < case_medians.size(); ++c) {
      if (t % per_sigma == 0) {
        sigmas[c] = options.noise.sigma_median *
                    std::exp(options.noise.sigma_spread * sigma_unit(sigma_rng));
      }
      const double median = case_medians[c];
      CaseInput in;
      in.case_index = c;
      for (size_t r = 0; r < config.baseline_runs; ++r) {
        in.baseline.push_back(Good(median * (1 + sigmas[c] * unit(rng)), kClockMhz));
      }
      const int pairs = static_cast<int>(2 * config.model_noise_weight);
      double sum = 0;
      for (int k = 0; k < pairs; ++k) {
        const double d = sigmas[c] * unit(rng);
        sum += d * d;
      }
      in.model.sigma_relative = std::sqrt(sum / pairs);
      in.model.pairs = static_cast<size_t>(pairs);
      in.model.devices = 8;
      in.candidate = Good(median * (1 + sigmas[c] * unit(rng)), kClockMhz);
      inputs.push_back(std::move(in));
    }
    JudgeRun(inputs, config, options, "trial " + std::to_string(t), &tally);
  }
  char source[200];
  std::snprintf(source, sizeof(source),
                "simulated: %zu cases x %d runs (%d sigma draws), sigma lognormal(median %.2f %%, "
                "spread %.2f)",
                case_medians.size(), options.trials_per_case, options.sigma_draws,
                100 * options.noise.sigma_median, options.noise.sigma_spread);
  PowerFigures f = Figures(source, tally, options, {});
  f.false_alarm_cases.clear();
  f.case_mdc.clear();
  return f;
}

double SimulatedUTestAlarmRate(const std::vector<RunPoint>& cases, const DetectionConfig& config,
                               const PowerOptions& options, int trials_per_case) {
  std::mt19937_64 rng(options.seed);
  std::normal_distribution<double> unit(0.0, 1.0);
  long trials = 0, alarms = 0;
  for (const RunPoint& c : cases) {
    if (c.samples_seconds.empty()) continue;
    for (int t = 0; t < trials_per_case; ++t) {
      const double sigma =
          options.noise.sigma_median * std::exp(options.noise.sigma_spread * unit(rng));
      auto scaled = [&](double factor) {
        RunPoint p = c;
        for (double& s : p.samples_seconds) s *= factor;
        p.median_seconds *= factor;
        return p;
      };
      std::vector<RunPoint> baseline;
      for (size_t r = 0; r < config.baseline_runs; ++r)
        baseline.push_back(scaled(1 + sigma * unit(rng)));
      const SeriesDecision d = DecideSeries(scaled(1 + sigma * unit(rng)), baseline, config);
      if (!d.u_test_p_value) continue;
      ++trials;
      if (*d.u_test_p_value < 0.01) ++alarms;
    }
  }
  return trials > 0 ? static_cast<double>(alarms) / static_cast<double>(trials) : NAN;
}

PowerFigures LeaveOneOutPower(const std::vector<std::vector<RunPoint>>& runs,
                              const std::vector<std::string>& case_keys,
                              const DetectionConfig& config, const PowerOptions& options) {
  Tally tally;
  tally.detected.assign(options.slowdowns.size(), 0);
  tally.quiet_detected.assign(options.slowdowns.size(), 0);
  long u_decisions = 0, u_alarms = 0;
  size_t run_count = 0, measured_cases = 0;
  for (const std::vector<RunPoint>& series : runs) {
    run_count = std::max(run_count, series.size());
    if (std::any_of(series.begin(), series.end(),
                    [&](const RunPoint& p) { return IsGoodRun(p, config); })) {
      ++measured_cases;
    }
  }
  // Each run in turn is the new run; every case of it is judged against the other runs of its
  // GPU (the baseline) with the model's noise from the other runs of every GPU.
  for (size_t held = 0; held < run_count; ++held) {
    std::vector<CaseInput> inputs;
    for (size_t c = 0; c < runs.size(); ++c) {
      const std::vector<RunPoint>& series = runs[c];
      if (held >= series.size() || !IsGoodRun(series[held], config)) continue;
      CaseInput in;
      in.case_index = c;
      std::vector<RunPoint> others;
      for (size_t r = 0; r < series.size(); ++r) {
        if (r == held) continue;
        RunPoint p = series[r];
        if (p.device_uuid == series[held].device_uuid) in.baseline.push_back(p);
        p.samples_seconds.clear();
        others.push_back(std::move(p));
      }
      in.model = SuccessiveDifferenceNoise(others, config);
      // The U-test on raw samples, what deciding on samples would raise (evidence only).
      const SeriesDecision u = DecideSeries(series[held], in.baseline, config, in.model);
      if (u.u_test_p_value) {
        ++u_decisions;
        if (*u.u_test_p_value < 0.01) ++u_alarms;
      }
      for (RunPoint& p : in.baseline) p.samples_seconds.clear();
      in.candidate = series[held];
      in.candidate.samples_seconds.clear();
      if (!(in.candidate.sm_clock_mhz > 0)) in.candidate.sm_clock_mhz = kClockMhz;
      inputs.push_back(std::move(in));
    }
    if (!inputs.empty()) JudgeRun(inputs, config, options, "run " + std::to_string(held), &tally);
  }
  char source[160];
  std::snprintf(source, sizeof(source), "leave-one-out: %zu cases x %zu repeated H100 runs",
                measured_cases, run_count);
  PowerFigures f = Figures(source, tally, options, case_keys);
  if (u_decisions > 0) {
    f.u_test_alarm_rate = static_cast<double>(u_alarms) / static_cast<double>(u_decisions);
  }
  return f;
}

namespace {

ChangeSpread SpreadOf(std::vector<double> changes) {
  ChangeSpread spread;
  if (changes.empty()) return spread;
  std::sort(changes.begin(), changes.end());
  spread.median = Median(changes);
  const double position = 0.95 * static_cast<double>(changes.size() - 1);
  const size_t below = static_cast<size_t>(position);
  const double above = below + 1 < changes.size() ? changes[below + 1] : changes[below];
  spread.p95 = changes[below] + (position - static_cast<double>(below)) * (above - changes[below]);
  spread.max = changes.back();
  return spread;
}

}  // namespace

ChangeSpread ObservedChangeSpread(const std::vector<std::vector<RunPoint>>& runs) {
  const DetectionConfig goodness;
  std::vector<double> changes;
  for (const std::vector<RunPoint>& series : runs) {
    for (size_t r = 1; r < series.size(); ++r) {
      if (IsGoodRun(series[r - 1], goodness) && IsGoodRun(series[r], goodness)) {
        changes.push_back(std::fabs(series[r].median_seconds / series[r - 1].median_seconds - 1));
      }
    }
  }
  return SpreadOf(changes);
}

ChangeSpread PredictedChangeSpread(const NoiseModel& noise, size_t cases, int trials,
                                   uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> unit(0.0, 1.0);
  std::vector<double> medians, p95s, maxima;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> changes;
    for (size_t c = 0; c < cases; ++c) {
      const double sigma = noise.sigma_median * std::exp(noise.sigma_spread * unit(rng));
      const double a = 1 + sigma * unit(rng), b = 1 + sigma * unit(rng);
      changes.push_back(std::fabs(b / a - 1));
    }
    std::sort(changes.begin(), changes.end());
    medians.push_back(Median(changes));
    // Linearly interpolated percentile (numpy's default), as the measured figures were taken.
    const double position = 0.95 * static_cast<double>(cases - 1);
    const size_t below = static_cast<size_t>(position);
    const double above = below + 1 < cases ? changes[below + 1] : changes[below];
    p95s.push_back(changes[below] +
                   (position - static_cast<double>(below)) * (above - changes[below]));
    maxima.push_back(changes.back());
  }
  return ChangeSpread{Median(medians), Median(p95s), Median(maxima)};
}

std::vector<CaseNoise> CaseNoiseOf(const std::vector<std::vector<RunPoint>>& runs,
                                   const std::vector<std::string>& case_keys) {
  const DetectionConfig goodness;
  std::vector<CaseNoise> noise;
  for (size_t c = 0; c < runs.size(); ++c) {
    std::vector<double> medians;
    for (const RunPoint& p : runs[c]) {
      if (IsGoodRun(p, goodness)) medians.push_back(p.median_seconds);
    }
    if (medians.size() < 3) continue;
    const RobustScale scale = RobustScaleOf(medians, 0.0);
    const auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
    noise.push_back(CaseNoise{c < case_keys.size() ? case_keys[c] : "?", scale.sigma / scale.center,
                              (*hi - *lo) / scale.center});
  }
  std::sort(noise.begin(), noise.end(), [](const CaseNoise& a, const CaseNoise& b) {
    return a.relative_sigma > b.relative_sigma;
  });
  return noise;
}

std::string PowerTable(const std::vector<PowerFigures>& figures) {
  std::string out =
      "| data | runs | runs with a flag (A/A) | A/A decisions | false alarms (SLOWER) | any flag "
      "| UNSURE |";
  if (!figures.empty()) {
    for (double s : figures.front().slowdowns) {
      char cell[48];
      std::snprintf(cell, sizeof(cell), " +%g %% caught |", 100 * s);
      out += cell;
    }
  }
  if (!figures.empty()) {
    for (double s : figures.front().slowdowns) {
      char cell[64];
      std::snprintf(cell, sizeof(cell), " +%g %% caught, MDC <= 2 %% |", 100 * s);
      out += cell;
    }
  }
  out += " clock drop -> ENVIRONMENT | U-test p < 0.01 on A/A |\n|---|---|---|---|---|---|---|";
  if (!figures.empty()) {
    for (size_t i = 0; i < 2 * figures.front().slowdowns.size(); ++i) out += "---|";
  }
  out += "---|---|\n";
  for (const PowerFigures& f : figures) {
    char row[256];
    std::snprintf(row, sizeof(row), "| %s | %ld | %ld | %ld | %.3f %% | %.3f %% | %.2f %% |",
                  f.source.c_str(), f.runs, f.runs_with_false_alarm, f.decisions,
                  100 * f.false_alarm_rate, 100 * f.any_flag_rate, 100 * f.unsure_rate);
    out += row;
    for (double d : f.detection_rate) {
      std::snprintf(row, sizeof(row), " %.1f %% |", 100 * d);
      out += row;
    }
    for (double d : f.quiet_detection_rate) {
      std::snprintf(row, sizeof(row), " %.1f %% |", 100 * d);
      out += row;
    }
    std::snprintf(row, sizeof(row), " %.1f %% |", 100 * f.clock_drop_environment_rate);
    out += row;
    if (f.u_test_alarm_rate >= 0) {
      std::snprintf(row, sizeof(row), " %.1f %% |\n", 100 * f.u_test_alarm_rate);
    } else {
      std::snprintf(row, sizeof(row), " - |\n");
    }
    out += row;
  }
  return out;
}

}  // namespace warpwatch::server::detect::power
