// detect_power: the false-alarm and detection figures of docs/regressions.md.
//   detect_power --fixtures tests/fixtures [--n 10 --q 0.01 --min-change 0.01 --floor 0.002]
// Simulates from h100_nightly.json and, when repeated-run fixtures exist (h100_repeat*.json or
// h100_repeated/*.json), adds their leave-one-out figures. Prints a markdown table.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "server/detect/baseline.h"
#include "server/detect/robust_stats.h"
#include "tests/server/detect/power/fixture_reader.h"
#include "tests/server/detect/power/power_study.h"

namespace detect = warpwatch::server::detect;

int main(int argc, char** argv) {
  CLI::App app{"Detection power of warpwatch's per-run regression decision"};
  std::string fixtures = "tests/fixtures";
  detect::DetectionConfig config;
  detect::power::PowerOptions options;
  double loo_min_baseline = -1;
  app.add_option("--fixtures", fixtures, "folder holding h100_nightly.json and repeated runs");
  app.add_option("--n", config.baseline_runs, "baseline runs N");
  app.add_option("--min-runs", config.min_baseline_runs, "fewest baseline runs judged");
  app.add_option("--q", config.false_alarm_rate, "false-alarm rate controlled over a run");
  app.add_option("--min-change", config.min_relative_change, "minimum relative change");
  app.add_option("--floor", config.noise_floor_relative, "noise floor, relative sigma");
  app.add_option("--model-weight", config.model_noise_weight, "model noise weight (pairs)");
  app.add_option("--noise-quantile", config.noise_quantile, "quantile of |difference| for sigma");
  app.add_option("--dof-per-pair", config.noise_dof_per_pair, "t degrees of freedom per pair");
  app.add_option("--max-dof", config.max_noise_dof, "t degrees of freedom, at most");
  std::string fixture_folder;
  app.add_option("--repeated", fixture_folder,
                 "folder of repeated runs (default: h100_repeated/ under --fixtures)");
  app.add_option("--trials", options.trials_per_case, "simulated trials per case");
  app.add_option("--seed", options.seed, "simulation seed");
  app.add_option("--sigma-median", options.noise.sigma_median, "noise model: median case sigma");
  app.add_option("--sigma-spread", options.noise.sigma_spread, "noise model: lognormal spread");
  app.add_option("--loo-min-runs", loo_min_baseline,
                 "min baseline runs for leave-one-out (default: as --min-runs)");
  CLI11_PARSE(app, argc, argv);

  std::vector<detect::power::PowerFigures> figures;
  auto nightly = detect::power::ReadRunFixture(fixtures + "/h100_nightly.json", true);
  if (!nightly.ok()) {
    std::cerr << nightly.status().ToString() << "\n";
    return 1;
  }
  std::vector<double> medians;
  for (const auto& c : nightly->cases) {
    if (detect::IsGoodRun(c.point, config)) medians.push_back(c.point.median_seconds);
  }
  figures.push_back(detect::power::SimulatePower(medians, config, options));
  int u_trials = 20;

  const auto repeated_paths = fixture_folder.empty()
                                  ? detect::power::FindRepeatedRunFixtures(fixtures)
                                  : detect::power::FindRunFixturesIn(fixture_folder);
  std::vector<detect::power::CaseMdc> case_mdc;
  std::string observed;
  std::vector<std::string> false_alarm_cases;
  if (!repeated_paths.empty()) {
    auto repeated = detect::power::LoadRepeatedRuns(repeated_paths, /*with_samples=*/true);
    if (!repeated.ok()) {
      std::cerr << repeated.status().ToString() << "\n";
      return 1;
    }
    detect::DetectionConfig loo = config;
    if (loo_min_baseline >= 0) loo.min_baseline_runs = static_cast<size_t>(loo_min_baseline);
    figures.push_back(
        detect::power::LeaveOneOutPower(repeated->runs, repeated->case_keys, loo, options));
    false_alarm_cases = figures.back().false_alarm_cases;
    case_mdc = figures.back().case_mdc;
    const auto spread = detect::power::ObservedChangeSpread(repeated->runs);
    char line[256];
    std::snprintf(line, sizeof(line),
                  "repeated runs (%zu files), |change| between consecutive runs over all cases: "
                  "median %.2f %%, p95 %.2f %%, max %.2f %%\n",
                  repeated_paths.size(), 100 * spread.median, 100 * spread.p95, 100 * spread.max);
    observed = line;
    const auto noise = detect::power::CaseNoiseOf(repeated->runs, repeated->case_keys);
    if (!noise.empty()) {
      std::vector<double> sigmas;
      for (const auto& n : noise) sigmas.push_back(n.relative_sigma);  // noisiest first
      auto at = [&](double q) {
        return sigmas[static_cast<size_t>((1 - q) * (sigmas.size() - 1))];
      };
      std::snprintf(line, sizeof(line),
                    "per-case robust sigma of the run medians over %zu cases: median %.2f %%, "
                    "p90 %.2f %%, p95 %.2f %%, max %.2f %%; noisiest:\n",
                    sigmas.size(), 100 * at(0.5), 100 * at(0.9), 100 * at(0.95), 100 * sigmas[0]);
      observed += line;
      std::vector<double> logs;
      for (double sigma : sigmas) {
        if (sigma > 0) logs.push_back(std::log(sigma));
      }
      const detect::RobustScale fit = detect::RobustScaleOf(logs, 0.0);
      std::snprintf(line, sizeof(line),
                    "lognormal fit of those sigmas (inflated by estimating each from few runs): "
                    "--sigma-median %.4f --sigma-spread %.2f\n",
                    std::exp(fit.center), fit.sigma);
      observed += line;
      for (size_t i = 0; i < noise.size() && i < 8; ++i) {
        std::snprintf(line, sizeof(line), "  %-70s sigma %.2f %%, range %.2f %%\n",
                      noise[i].case_key.c_str(), 100 * noise[i].relative_sigma,
                      100 * noise[i].relative_range);
        observed += line;
      }
    }
  }
  std::printf(
      "N=%zu min_runs=%zu q=%g min_change=%g floor=%g model_weight=%g dof_per_pair=%g "
      "dof=[%g, %g] noise_quantile=%g\n\n",
      config.baseline_runs, config.min_baseline_runs, config.false_alarm_rate,
      config.min_relative_change, config.noise_floor_relative, config.model_noise_weight,
      config.noise_dof_per_pair, config.min_noise_dof, config.max_noise_dof, config.noise_quantile);
  std::printf("%s", detect::power::PowerTable(figures).c_str());
  const auto spread = detect::power::PredictedChangeSpread(options.noise, 59, 400, 7);
  std::printf(
      "\nnoise model, |change| between two runs of 59 cases: median %.2f %%, p95 %.2f %%, "
      "max %.2f %% (measured: 0.15 %%, 1.6 %%, 4.2 %%)\n",
      100 * spread.median, 100 * spread.p95, 100 * spread.max);
  std::vector<detect::RunPoint> good_cases;
  for (const auto& c : nightly->cases) {
    if (detect::IsGoodRun(c.point, config)) good_cases.push_back(c.point);
  }
  std::printf(
      "simulated A/A, U-test on raw samples (h100_nightly.json samples scaled per run, "
      "%d trials per case): p < 0.01 in %.1f %% of trials\n",
      u_trials,
      100 * detect::power::SimulatedUTestAlarmRate(good_cases, config, options, u_trials));
  std::printf("%s", observed.c_str());
  for (const std::string& c : false_alarm_cases) std::printf("  A/A flagged: %s\n", c.c_str());
  if (!case_mdc.empty()) {
    std::vector<double> mdcs;
    size_t quiet = 0, at_minimum = 0;
    for (const auto& c : case_mdc) {
      mdcs.push_back(c.mdc);
      if (c.mdc <= 0.02) ++quiet;
      if (c.mdc <= config.min_relative_change * (1 + 1e-9)) ++at_minimum;
    }
    std::printf(
        "minimum detectable change per case (median over the held-out runs), %zu cases: median "
        "%.2f %%, %zu cases <= 2 %% (%ld of %ld case-runs), %zu at the minimum change; above "
        "3 %%:\n",
        mdcs.size(), 100 * detect::Median(mdcs), quiet, figures.back().quiet_decisions,
        figures.back().decisions, at_minimum);
    for (const auto& c : case_mdc) {
      if (c.mdc > 0.03) std::printf("  %-72s MDC %.1f %%\n", c.case_key.c_str(), 100 * c.mdc);
    }
    std::printf("between 2 %% and 3 %%:\n");
    for (const auto& c : case_mdc) {
      if (c.mdc > 0.02 && c.mdc <= 0.03) {
        std::printf("  %-72s MDC %.1f %%\n", c.case_key.c_str(), 100 * c.mdc);
      }
    }
  }
  return 0;
}
