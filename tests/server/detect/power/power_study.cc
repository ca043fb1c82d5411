// Simulated and leave-one-out detection power.
#include "tests/server/detect/power/power_study.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

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

void Judge(const std::vector<RunPoint>& baseline, double new_median, const DetectionConfig& config,
           const PowerOptions& options, Tally* tally) {
  const SeriesDecision aa = DecideSeries(Good(new_median, kClockMhz), baseline, config);
  ++tally->decisions;
  if (aa.verdict == Verdict::kSlower) ++tally->slower;
  if (aa.verdict == Verdict::kSlower || aa.verdict == Verdict::kFaster) ++tally->flagged;
  if (aa.verdict == Verdict::kUnsure) ++tally->unsure;
  for (size_t s = 0; s < options.slowdowns.size(); ++s) {
    const SeriesDecision d =
        DecideSeries(Good(new_median * (1 + options.slowdowns[s]), kClockMhz), baseline, config);
    if (d.verdict == Verdict::kSlower) ++tally->detected[s];
  }
  const double drop = options.clock_drop_to_mhz;
  const SeriesDecision clock =
      DecideSeries(Good(new_median * kClockMhz / drop, drop), baseline, config);
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
      Judge(baseline, median * (1 + sigma * unit(rng)), config, options, &tally);
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

PowerFigures LeaveOneOutPower(const std::vector<std::vector<double>>& runs_by_case,
                              const DetectionConfig& config, const PowerOptions& options) {
  Tally tally;
  tally.detected.assign(options.slowdowns.size(), 0);
  size_t runs = 0;
  for (const std::vector<double>& series : runs_by_case) {
    runs = std::max(runs, series.size());
    for (size_t held = 0; held < series.size(); ++held) {
      if (!std::isfinite(series[held])) continue;
      std::vector<RunPoint> baseline;
      for (size_t r = 0; r < series.size(); ++r) {
        if (r != held && std::isfinite(series[r])) baseline.push_back(Good(series[r], kClockMhz));
      }
      Judge(baseline, series[held], config, options, &tally);
    }
  }
  char source[160];
  std::snprintf(source, sizeof(source), "leave-one-out: %zu cases x %zu repeated runs",
                runs_by_case.size(), runs);
  return Figures(source, tally, options);
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

std::string PowerTable(const std::vector<PowerFigures>& figures) {
  std::string out = "| data | A/A decisions | false alarms (SLOWER) | any flag | UNSURE |";
  if (!figures.empty()) {
    for (double s : figures.front().slowdowns) {
      char cell[48];
      std::snprintf(cell, sizeof(cell), " +%g %% caught |", 100 * s);
      out += cell;
    }
  }
  out += " clock drop -> ENVIRONMENT |\n|---|---|---|---|---|";
  if (!figures.empty()) {
    for (size_t i = 0; i < figures.front().slowdowns.size(); ++i) out += "---|";
  }
  out += "---|\n";
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
    std::snprintf(row, sizeof(row), " %.1f %% |\n", 100 * f.clock_drop_environment_rate);
    out += row;
  }
  return out;
}

}  // namespace warpwatch::server::detect::power
