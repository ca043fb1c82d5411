// File: tests/server/gpu_health/power/virtual_fleet.cc
#include "tests/server/gpu_health/power/virtual_fleet.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

#include "server/detect/noise_model.h"
#include "server/gpu_health/subsystem_map.h"
#include "tests/server/gpu_health/power/night_views.h"

namespace warpwatch::server::gpu_health::power {
namespace {

constexpr double kNoPoint = std::numeric_limits<double>::quiet_NaN();
constexpr double kClockMhz = 1980;  // every run's and night's clock: clocks are not studied here

// 2026-01-01 02:00 UTC.
const TimePoint kFirstNight = TimePoint(std::chrono::seconds(1767232800));

detect::RunPoint Point(const std::string& uuid, int64_t run_id, double median) {
  detect::RunPoint p;
  p.run_id = run_id;
  p.device_uuid = uuid;
  p.median_seconds = median;
  p.ok = !std::isnan(median);
  p.verified = true;
  p.sm_clock_mhz = kClockMhz;
  return p;
}

}  // namespace

VirtualFleet::VirtualFleet(const RunPool& pool, FleetOptions options)
    : pool_(pool), options_(std::move(options)), rng_(options_.seed) {
  const size_t g = static_cast<size_t>(options_.gpus);
  const size_t cases = pool_.case_keys.size();
  const size_t k = pool_.offset_basis.size();
  std::normal_distribution<double> normal(0, 1);
  offsets_.assign(g, std::vector<double>(cases, 0));
  for (size_t i = 0; i < g; ++i) {
    uuids_.push_back("g" + std::to_string(i));
    for (size_t b = 0; b < k; ++b) {
      const double w = options_.offset_scale * normal(rng_) / std::sqrt(static_cast<double>(k - 1));
      for (size_t c = 0; c < cases; ++c) offsets_[i][c] += w * pool_.offset_basis[b][c];
    }
  }
  faulty_.assign(g, false);
  for (int i : options_.fault.gpus) faulty_.at(static_cast<size_t>(i)) = true;
  faulty_case_.assign(cases, false);
  for (size_t c = 0; c < cases; ++c) {
    faulty_case_[c] = options_.fault.subsystem != v1::GPU_SUBSYSTEM_UNSPECIFIED &&
                      SubsystemOfFamily(pool_.families[c]) == options_.fault.subsystem;
  }
  noise_history_.resize(cases);
  histories_.resize(g);
  for (size_t i = 0; i < g; ++i) {
    histories_[i].device_uuid = uuids_[i];
    histories_[i].gpu_model = "virtual";
    histories_[i].gpu_index = static_cast<int>(i);
  }
}

TimePoint VirtualFleet::NightStart(int night) const {
  return kFirstNight + std::chrono::hours(24) * night;
}

void VirtualFleet::DrawNight() {
  const size_t g = static_cast<size_t>(options_.gpus);
  const size_t cases = pool_.case_keys.size();
  const InjectedFault& fault = options_.fault;
  const bool fault_on = nights_ >= fault.from_night;
  std::uniform_int_distribution<size_t> pick(0, pool_.runs.size() - 1);
  drawn_.assign(g, 0);
  medians_.assign(g, std::vector<double>(cases, kNoPoint));
  for (size_t i = 0; i < g; ++i) {
    const bool sick = fault_on && faulty_[i];
    const std::vector<double>* residual = nullptr;
    if (sick && !fault.runs.empty()) {
      const size_t r = static_cast<size_t>(nights_ - fault.from_night) % fault.runs.size();
      drawn_[i] = -1 - static_cast<int>(r);
      residual = &fault.runs[r].residual;
    } else {
      const size_t r = pick(rng_);
      drawn_[i] = static_cast<int>(r);
      residual = &pool_.runs[r].residual;
    }
    for (size_t c = 0; c < cases; ++c) {
      double m = pool_.reference_seconds[c] * (1 + offsets_[i][c]) * (1 + (*residual)[c]);
      if (sick && faulty_case_[c]) m *= 1 + fault.slowdown;
      medians_[i][c] = m;
    }
  }
}

void VirtualFleet::JudgeNight() {
  const size_t g = static_cast<size_t>(options_.gpus);
  const size_t cases = pool_.case_keys.size();
  const int64_t first_run_id = static_cast<int64_t>(nights_) * options_.gpus + 1;
  // The night's finish order: the analysis judges runs as they finish.
  std::vector<size_t> order(g);
  std::iota(order.begin(), order.end(), size_t{0});
  std::shuffle(order.begin(), order.end(), rng_);
  std::vector<RunSummary> runs(g);
  std::vector<std::set<std::string>> judged_families(g);
  const size_t first_view =
      options_.growing_night ? FirstJudgingView(options_.judge_from, options_.gpus) : g;
  noise_.assign(cases, kNoPoint);
  for (size_t c = 0; c < cases; ++c) {
    const detect::NoiseEstimate noise =
        detect::SuccessiveDifferenceNoise(noise_history_[c], options_.noise_config);
    noise_[c] = noise.known() ? noise.sigma_relative : kNoPoint;
    std::vector<detect::RunPoint> night;  // in arrival order
    night.reserve(g);
    for (size_t i : order) {
      night.push_back(Point(uuids_[i], first_run_id + static_cast<int64_t>(i), medians_[i][c]));
    }
    const NightJudgement views = JudgeArrivals(night, first_view, options_.fleet, noise_[c]);
    std::vector<bool> judged(g, false);
    for (size_t a = 0; a < g; ++a) {
      const size_t i = order[a];
      judged[i] = views.judged[a];
      const std::optional<detect::DeviceJudgement>& d = views.outlier[a];
      if (d && d->direction == detect::Verdict::kSlower) {
        runs[i].outliers.push_back({pool_.case_keys[c], pool_.families[c], d->change, d->z});
      }
    }
    for (size_t i = 0; i < g; ++i) {
      if (!judged[i]) continue;
      ++runs[i].fleet_judged_cases;
      judged_families[i].insert(pool_.families[c]);
    }
    // The night's good points join the model noise's history; the newest points are kept.
    std::vector<detect::RunPoint>& history = noise_history_[c];
    for (const detect::RunPoint& p : night) {
      if (p.ok) history.push_back(p);
    }
    if (history.size() > options_.model_noise_points) {
      history.erase(history.begin(),
                    history.end() - static_cast<std::ptrdiff_t>(options_.model_noise_points));
    }
  }
  for (size_t i = 0; i < g; ++i) {
    RunSummary& run = runs[i];
    run.run_id = first_run_id + static_cast<int64_t>(i);
    run.started_at = NightStart(nights_);
    run.night_devices = options_.gpus;
    run.sm_clock_mhz = kClockMhz;
    run.night_sm_clock_mhz = kClockMhz;
    run.fleet_judged_families.assign(judged_families[i].begin(), judged_families[i].end());
    std::vector<RunSummary>& kept = histories_[i].runs;
    kept.push_back(std::move(run));
    if (static_cast<int>(kept.size()) > options_.window_runs) kept.erase(kept.begin());
  }
}

void VirtualFleet::RunNight() {
  DrawNight();
  JudgeNight();
  ++nights_;
}

}  // namespace warpwatch::server::gpu_health::power
