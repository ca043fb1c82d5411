// Simulated and leave-one-out detection power.
#include "tests/server/detect/power/power_study.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "server/detect/baseline.h"
#include "server/detect/robust_stats.h"
#include "server/detect/series_decision.h"

namespace warpwatch::server::detect::power {
namespace {

constexpr double kClockMhz = 1980;

RunPoint Good(double median, double clock_mhz) {
  RunPoint p;
  p.median_seconds = median;
  p.sm_clock_mhz = clock_mhz;
  p.ok = true;
  p.verified = true;
  return p;
}

// Tallies of one study.
struct Tally {
  long decisions = 0, slower = 0, flagged = 0, unsure = 0, environment = 0;
  std::vector<long> detected;
};

// Judges `candidate` (no samples) as it is, slowed down, and with its clock dropped.
void Judge(const std::vector<RunPoint>& baseline, const RunPoint& candidate,
           const DetectionConfig& config, const PowerOptions& options, Tally* tally) {
  auto variant = [&](double time_factor, double clock_mhz) {
    RunPoint p = candidate;
    p.median_seconds *= time_factor;
    p.sm_clock_mhz = clock_mhz;
    return DecideSeries(p, baseline, config);
  };
  const SeriesDecision aa = variant(1, candidate.sm_clock_mhz);
  ++tally->decisions;
  if (aa.verdict == Verdict::kSlower) ++tally->slower;
  if (aa.verdict == Verdict::kSlower || aa.verdict == Verdict::kFaster) ++tally->flagged;
  if (aa.verdict == Verdict::kUnsure) ++tally->unsure;
  for (size_t s = 0; s < options.slowdowns.size(); ++s) {
    if (variant(1 + options.slowdowns[s], candidate.sm_clock_mhz).verdict == Verdict::kSlower) {
      ++tally->detected[s];
    }
  }
  const double drop = options.clock_drop_to_mhz;
  const SeriesDecision clock = variant(candidate.sm_clock_mhz / drop, drop);
  if (clock.verdict == Verdict::kSlower && clock.blame == Blame::kEnvironment) ++tally->environment;
}

PowerFigures Figures(const std::string& source, const Tally& tally, const PowerOptions& options) {
  PowerFigures f;
  f.source = source;
  f.decisions = tally.decisions;
  const double n = tally.decisions > 0 ? static_cast<double>(tally.decisions) : NAN;
  f.false_alarm_rate = static_cast<double>(tally.slower) / n;
  f.any_flag_rate = static_cast<double>(tally.flagged) / n;
  f.unsure_rate = static_cast<double>(tally.unsure) / n;
  f.slowdowns = options.slowdowns;
  for (long d : tally.detected) f.detection_rate.push_back(static_cast<double>(d) / n);
  f.clock_drop_environment_rate = static_cast<double>(tally.environment) / n;
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
  const int per_sigma = std::max(1, options.trials_per_case / std::max(1, options.sigma_draws));
  for (double median : case_medians) {
    double sigma = 0;
    for (int t = 0; t < options.trials_per_case; ++t) {
      if (t % per_sigma == 0) {
        sigma = options.noise.sigma_median *
                std::exp(options.noise.sigma_spread * sigma_unit(sigma_rng));
      }
      std::vector<RunPoint> baseline;
      for (size_t r = 0; r < config.baseline_runs; ++r) {
        baseline.push_back(Good(median * (1 + sigma * unit(rng)), kClockMhz));
      }
      Judge(baseline, Good(median * (1 + sigma * unit(rng)), kClockMhz), config, options, &tally);
    }
  }
  char source[160];
  std::snprintf(
      source, sizeof(source),
      "simulated: %zu cases x %d trials (%d sigma draws), sigma lognormal(median %.2f %%, "
      "spread %.2f)",
      case_medians.size(), options.trials_per_case, options.sigma_draws,
      100 * options.noise.sigma_median, options.noise.sigma_spread);
  return Figures(source, tally, options);
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
  long u_decisions = 0, u_alarms = 0;
  std::vector<std::string> false_alarms;
  size_t run_count = 0, measured_cases = 0;
  for (size_t c = 0; c < runs.size(); ++c) {
    const std::vector<RunPoint>& series = runs[c];
    run_count = std::max(run_count, series.size());
    if (std::any_of(series.begin(), series.end(),
                    [&](const RunPoint& p) { return IsGoodRun(p, config); })) {
      ++measured_cases;
    }
    for (size_t held = 0; held < series.size(); ++held) {
      if (!IsGoodRun(series[held], config)) continue;
      std::vector<RunPoint> baseline;
      for (size_t r = 0; r < series.size(); ++r) {
        if (r != held) baseline.push_back(series[r]);
      }
      const SeriesDecision aa = DecideSeries(series[held], baseline, config);
      if (aa.u_test_p_value) {
        ++u_decisions;
        if (*aa.u_test_p_value < 0.01) ++u_alarms;
      }
      if (aa.verdict == Verdict::kSlower || aa.verdict == Verdict::kFaster) {
        char text[64];
        std::snprintf(text, sizeof(text), " (run %zu): %+.2f %%, z %.1f", held,
                      100 * aa.time.change, aa.time.z);
        false_alarms.push_back((c < case_keys.size() ? case_keys[c] : "?") + text);
      }
      for (RunPoint& run : baseline) run.samples_seconds.clear();  // medians suffice from here
      RunPoint candidate = series[held];
      candidate.samples_seconds.clear();
      if (!(candidate.sm_clock_mhz > 0)) candidate.sm_clock_mhz = kClockMhz;
      Judge(baseline, candidate, config, options, &tally);
    }
  }
  char source[160];
  std::snprintf(source, sizeof(source), "leave-one-out: %zu cases x %zu repeated H100 runs",
                measured_cases, run_count);
  PowerFigures f = Figures(source, tally, options);
  if (u_decisions > 0) {
    f.u_test_alarm_rate = static_cast<double>(u_alarms) / static_cast<double>(u_decisions);
  }
  f.false_alarm_cases = false_alarms;
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
  std::string out = "| data | A/A decisions | false alarms (SLOWER) | any flag | UNSURE |";
  if (!figures.empty()) {
    for (double s : figures.front().slowdowns) {
      char cell[48];
      std::snprintf(cell, sizeof(cell), " +%g %% caught |", 100 * s);
      out += cell;
    }
  }
  out += " clock drop -> ENVIRONMENT | U-test p < 0.01 on A/A |\n|---|---|---|---|---|";
  if (!figures.empty()) {
    for (size_t i = 0; i < figures.front().slowdowns.size(); ++i) out += "---|";
  }
  out += "---|---|\n";
  for (const PowerFigures& f : figures) {
    char row[256];
    std::snprintf(row, sizeof(row), "| %s | %ld | %.2f %% | %.2f %% | %.2f %% |", f.source.c_str(),
                  f.decisions, 100 * f.false_alarm_rate, 100 * f.any_flag_rate,
                  100 * f.unsure_rate);
    out += row;
    for (double d : f.detection_rate) {
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
