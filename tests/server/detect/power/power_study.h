// Detection power of DecideSeries: false alarms on identical code and detection of injected
// slowdowns, (a) simulated from one run's per-case medians with the measured between-run noise,
// (b) leave-one-out over real repeated runs of the suite.
#ifndef WARPWATCH_TESTS_SERVER_DETECT_POWER_POWER_STUDY_H_
#define WARPWATCH_TESTS_SERVER_DETECT_POWER_POWER_STUDY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "server/detect/detection_config.h"
#include "server/detect/run_point.h"

namespace warpwatch::server::detect::power {

// Between-run noise of a case's median, fitted to the one measured pair of back-to-back H100
// runs (59 cases over 20 us: median |change| 0.15 %, p95 1.6 %, max 4.2 %): each case has its own
// relative sigma, lognormal across cases (median sigma_median, log-spread sigma_spread); each
// run's median is the case's true median times (1 + N(0, sigma_case^2)). These two parameters
// reproduce median 0.15 %, p95 1.57 %, max 4.4 % of |change| between two runs over 59 cases.
struct NoiseModel {
  double sigma_median = 0.0018;
  double sigma_spread = 1.28;
};

struct PowerOptions {
  uint64_t seed = 1;
  int trials_per_case = 1000;  // simulation only
  // Which cases are the noisy ones is unknown, so the simulation averages over assignments: the
  // case's sigma is redrawn every trials_per_case / sigma_draws trials (from its own stream, so
  // two configs are compared on the same sigmas).
  int sigma_draws = 10;
  std::vector<double> slowdowns = {0.02, 0.03, 0.05, 0.10};
  NoiseModel noise;
  double clock_drop_to_mhz = 1700;  // a 1980 -> 1700 MHz drop, cycles unchanged
};

struct ChangeSpread {
  double median = 0;
  double p95 = 0;
  double max = 0;
};

// A case's median minimum detectable change over the study's runs.
struct CaseMdc {
  std::string case_key;
  double mdc = 0;
};

struct PowerFigures {
  std::string source;           // which data
  long runs = 0;  // runs judged (each a set of decisions under one false-alarm control)
  long runs_with_false_alarm = 0;  // A/A runs that raised any SLOWER or FASTER
  long decisions = 0;           // A/A decisions made (one per case and trial, or per held-out run)
  double false_alarm_rate = 0;  // A/A judged SLOWER
  double any_flag_rate = 0;     // A/A judged SLOWER or FASTER
  double unsure_rate = 0;       // A/A judged UNSURE
  std::vector<double> slowdowns;
  std::vector<double> detection_rate;      // judged SLOWER, per slowdown
  long quiet_decisions = 0;                // A/A decisions of series with an MDC <= 2 %
  std::vector<double> quiet_detection_rate;  // judged SLOWER among those, per slowdown
  double clock_drop_environment_rate = 0;  // clock drop with unchanged cycles judged ENVIRONMENT
  // Leave-one-out only: A/A decisions whose U-test on raw samples (new run against the pooled
  // baseline samples) gave p < 0.01, i.e. what deciding on samples would have raised; -1 if
  // unknown.
  double u_test_alarm_rate = -1;
  std::vector<std::string> false_alarm_cases;  // leave-one-out: "case (run r): +x.x %"
  std::vector<CaseMdc> case_mdc;               // leave-one-out: per case, largest first
};

// (a) Every case's true median is `case_medians[i]`; a trial is one simulated run of every case:
// per case config.baseline_runs baseline runs and one new run are drawn from the noise model, and
// the model's estimate of its sigma from 2 x model_noise_weight simulated pairs; the new run is
// judged as it is (A/A), with every case multiplied by (1 + s) for each slowdown, and with its
// clock dropped, each variant under the run-wide false-alarm control (ControlFalseAlarms).
PowerFigures SimulatePower(const std::vector<double>& case_medians, const DetectionConfig& config,
                           const PowerOptions& options);

// What deciding on raw samples would do to identical code: per trial, each case's recorded
// samples (`cases`, from one run) are scaled by (1 + e) per simulated run, e from the noise model,
// and the new run's samples are U-tested against the pooled samples of config.baseline_runs
// baseline runs. Returns the fraction of A/A trials with p < 0.01 (cases without samples skipped).
double SimulatedUTestAlarmRate(const std::vector<RunPoint>& cases, const DetectionConfig& config,
                               const PowerOptions& options, int trials_per_case);

// (b) runs[c][r]: case c in repeated run r (oldest first); a point that is not good (or absent:
// ok = false) is skipped. Each run r in turn is the new run: each of its good cases is judged
// against the other runs of its own GPU (device_uuid; the newest config.baseline_runs good ones),
// with the model's noise from the other runs of every GPU (SuccessiveDifferenceNoise), the whole
// run under one false-alarm control: as it is (A/A), with every median multiplied by (1 + s) for
// each slowdown, and with its clock dropped. case_keys[c] names case c in false_alarm_cases and
// case_mdc.
PowerFigures LeaveOneOutPower(const std::vector<std::vector<RunPoint>>& runs,
                              const std::vector<std::string>& case_keys,
                              const DetectionConfig& config, const PowerOptions& options);

// |change| of each case's median between consecutive runs of `runs` (good points only): the
// measured counterpart of PredictedChangeSpread (median, p95 interpolated, max over all pairs).
ChangeSpread ObservedChangeSpread(const std::vector<std::vector<RunPoint>>& runs);

// What the noise model predicts for |change| between two runs of `cases` cases: the median over
// `trials` draws of the median, p95 (interpolated) and max of |change|. For checking the model
// against the measured pair (0.15 %, 1.6 %, 4.2 % over 59 cases).
ChangeSpread PredictedChangeSpread(const NoiseModel& noise, size_t cases, int trials,
                                   uint64_t seed);

// Each case's between-run noise in repeated runs: robust relative sigma (1.4826 x MAD / median of
// its good medians; cases with fewer than 3 good runs left out), sorted noisiest first.
struct CaseNoise {
  std::string case_key;
  double relative_sigma = 0;
  double relative_range = 0;  // (max - min) / median
};
std::vector<CaseNoise> CaseNoiseOf(const std::vector<std::vector<RunPoint>>& runs,
                                   const std::vector<std::string>& case_keys);

// A markdown table row per figure set, with a header.
std::string PowerTable(const std::vector<PowerFigures>& figures);

}  // namespace warpwatch::server::detect::power

#endif  // WARPWATCH_TESTS_SERVER_DETECT_POWER_POWER_STUDY_H_
