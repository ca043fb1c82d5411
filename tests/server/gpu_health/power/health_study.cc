// File: tests/server/gpu_health/power/health_study.cc
#include "tests/server/gpu_health/power/health_study.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>

#include "server/gpu_health/gpu_verdict.h"
#include "server/gpu_health/run_judgement.h"

namespace warpwatch::server::gpu_health::power {
namespace {

bool Bad(v1::GpuHealthState s) {
  return s == v1::GPU_HEALTH_STATE_DEGRADED || s == v1::GPU_HEALTH_STATE_FAILING;
}

std::vector<HealthPolicy> Policies(const StudyOptions& options) {
  std::vector<HealthPolicy> out;
  for (int k : options.runs_to_change) {
    HealthPolicy p = options.policy;
    p.runs_to_change = k;
    out.push_back(p);
  }
  return out;
}

// The verdict an hour after the night started (its runs done and analysed).
v1::GpuHealth VerdictAfter(const VirtualFleet& fleet, size_t gpu, const HealthPolicy& policy) {
  const TimePoint now = fleet.NightStart(fleet.nights() - 1) + std::chrono::hours(1);
  return DecideGpuHealth(fleet.histories()[gpu], policy, now);
}

bool Names(const v1::GpuHealth& verdict, v1::GpuSubsystem subsystem) {
  for (const v1::GpuSubsystemEvidence& e : verdict.evidence()) {
    if (e.subsystem() == subsystem) return true;
  }
  return false;
}

// Runs trial(t, slot) for t in [0, trials) on `jobs` threads; slot (< jobs) picks the caller's
// per-thread tally, so no tally is shared between threads.
void ForTrials(int trials, int jobs, const std::function<void(int, int)>& trial) {
  jobs = std::max(1, std::min(jobs, trials));
  std::vector<std::thread> threads;
  for (int slot = 0; slot < jobs; ++slot) {
    threads.emplace_back([&, slot] {
      for (int t = slot; t < trials; t += jobs) trial(t, slot);
    });
  }
  for (std::thread& t : threads) t.join();
}

void Add(const std::map<v1::GpuSubsystem, int64_t>& from, std::map<v1::GpuSubsystem, int64_t>& to) {
  for (const auto& [subsystem, n] : from) to[subsystem] += n;
}

// `to` += `from` (same fleet size and policies).
void Add(const FalseAlarmFigures& from, FalseAlarmFigures& to) {
  to.gpu_nights += from.gpu_nights;
  to.judged_runs += from.judged_runs;
  to.watching_runs += from.watching_runs;
  to.failing_runs += from.failing_runs;
  to.slower_outliers += from.slower_outliers;
  Add(from.sick_runs_by_subsystem, to.sick_runs_by_subsystem);
  for (size_t p = 0; p < to.policies.size(); ++p) {
    const PolicyTally& a = from.policies[p];
    PolicyTally& b = to.policies[p];
    b.drains += a.drains;
    b.degraded_entries += a.degraded_entries;
    b.failing_entries += a.failing_entries;
    b.not_healthy_nights += a.not_healthy_nights;
    b.unknown_nights += a.unknown_nights;
    Add(a.drains_by_subsystem, b.drains_by_subsystem);
  }
}

}  // namespace

uint64_t TrialSeed(uint64_t seed, int gpus, int trial) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (static_cast<uint64_t>(gpus) * 1000003ULL +
                                               static_cast<uint64_t>(trial) + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;  // SplitMix64's finaliser
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

FalseAlarmFigures MeasureFalseAlarms(const RunPool& pool, int gpus, const StudyOptions& options) {
  FalseAlarmFigures f;
  f.gpus = gpus;
  f.trials = options.trials;
  f.nights = options.nights;
  f.burn_in = options.burn_in;
  const std::vector<HealthPolicy> policies = Policies(options);
  for (const HealthPolicy& p : policies) {
    PolicyTally t;
    t.runs_to_change = p.runs_to_change;
    f.policies.push_back(t);
  }
  const size_t g = static_cast<size_t>(gpus);
  std::vector<FalseAlarmFigures> slots(static_cast<size_t>(std::max(1, options.jobs)), f);
  ForTrials(options.trials, options.jobs, [&](int trial, int slot) {
    FalseAlarmFigures& f = slots[static_cast<size_t>(slot)];
    FleetOptions fo = options.fleet;
    fo.gpus = gpus;
    fo.seed = TrialSeed(options.seed, gpus, trial);
    fo.fault = InjectedFault();
    VirtualFleet fleet(pool, fo);
    std::vector<std::vector<v1::GpuHealthState>> previous(
        policies.size(), std::vector<v1::GpuHealthState>(g, v1::GPU_HEALTH_STATE_UNKNOWN));
    for (int night = 0; night < options.burn_in + options.nights; ++night) {
      fleet.RunNight();
      const bool counted = night >= options.burn_in;
      if (night + 1 < options.burn_in) continue;  // the night before the first counted one
      for (size_t i = 0; i < g; ++i) {
        if (counted) {
          const RunSummary& run = fleet.histories()[i].runs.back();
          const RunJudgement j = JudgeRun(run, options.policy);
          ++f.gpu_nights;
          f.slower_outliers += static_cast<int64_t>(run.outliers.size());
          if (j.judged) ++f.judged_runs;
          if (!j.sick.empty()) ++f.watching_runs;
          if (j.level == RunLevel::kFailing) ++f.failing_runs;
          for (const SubsystemSickness& s : j.sick) ++f.sick_runs_by_subsystem[s.subsystem];
        }
        for (size_t p = 0; p < policies.size(); ++p) {
          const v1::GpuHealth verdict = VerdictAfter(fleet, i, policies[p]);
          const v1::GpuHealthState state = verdict.state();
          const v1::GpuHealthState before = previous[p][i];
          previous[p][i] = state;
          if (!counted) continue;
          PolicyTally& t = f.policies[p];
          if (Bad(state)) ++t.not_healthy_nights;
          if (state == v1::GPU_HEALTH_STATE_UNKNOWN) ++t.unknown_nights;
          if (Bad(state) && before == v1::GPU_HEALTH_STATE_HEALTHY) {
            ++t.drains;
            if (verdict.evidence_size() > 0)
              ++t.drains_by_subsystem[verdict.evidence(0).subsystem()];
          }
          if (state == v1::GPU_HEALTH_STATE_DEGRADED && before == v1::GPU_HEALTH_STATE_HEALTHY) {
            ++t.degraded_entries;
          }
          if (state == v1::GPU_HEALTH_STATE_FAILING && before != v1::GPU_HEALTH_STATE_FAILING) {
            ++t.failing_entries;
          }
        }
      }
    }
  });
  for (const FalseAlarmFigures& s : slots) Add(s, f);
  return f;
}

PowerFigures MeasurePower(const RunPool& pool, int gpus, InjectedFault fault,
                          const std::vector<int>& after_nights, const StudyOptions& options) {
  PowerFigures f;
  f.gpus = gpus;
  f.trials = options.trials;
  f.after_nights = after_nights;
  const std::vector<HealthPolicy> policies = Policies(options);
  f.not_healthy.assign(policies.size(), std::vector<int64_t>(after_nights.size(), 0));
  f.failing = f.named = f.not_healthy;
  f.eligible.assign(policies.size(), 0);
  f.first_named.assign(policies.size(),
                       std::vector<std::map<v1::GpuSubsystem, int64_t>>(after_nights.size()));
  fault.gpus = {0};
  fault.from_night = options.burn_in;
  const int last = *std::max_element(after_nights.begin(), after_nights.end());
  std::vector<PowerFigures> slots(static_cast<size_t>(std::max(1, options.jobs)), f);
  ForTrials(options.trials, options.jobs, [&](int trial, int slot) {
    PowerFigures& f = slots[static_cast<size_t>(slot)];
    FleetOptions fo = options.fleet;
    fo.gpus = gpus;
    fo.seed = TrialSeed(options.seed, gpus, trial);
    fo.fault = fault;
    VirtualFleet fleet(pool, fo);
    std::vector<bool> eligible(policies.size(), false);
    for (int night = 0; night < options.burn_in + last; ++night) {
      fleet.RunNight();
      const int faulty_nights = night - options.burn_in + 1;
      if (faulty_nights == 0) {
        for (size_t p = 0; p < policies.size(); ++p) {
          eligible[p] = VerdictAfter(fleet, 0, policies[p]).state() == v1::GPU_HEALTH_STATE_HEALTHY;
          if (eligible[p]) ++f.eligible[p];
        }
      }
      for (size_t a = 0; a < after_nights.size(); ++a) {
        if (after_nights[a] != faulty_nights) continue;
        for (size_t p = 0; p < policies.size(); ++p) {
          if (!eligible[p]) continue;
          const v1::GpuHealth verdict = VerdictAfter(fleet, 0, policies[p]);
          if (!Bad(verdict.state())) continue;
          ++f.not_healthy[p][a];
          if (verdict.state() == v1::GPU_HEALTH_STATE_FAILING) ++f.failing[p][a];
          if (Names(verdict, fault.subsystem)) ++f.named[p][a];
          if (verdict.evidence_size() > 0) ++f.first_named[p][a][verdict.evidence(0).subsystem()];
        }
      }
    }
  });
  for (const PowerFigures& s : slots) {
    for (size_t p = 0; p < policies.size(); ++p) {
      f.eligible[p] += s.eligible[p];
      for (size_t a = 0; a < after_nights.size(); ++a) {
        f.not_healthy[p][a] += s.not_healthy[p][a];
        f.named[p][a] += s.named[p][a];
        f.failing[p][a] += s.failing[p][a];
        Add(s.first_named[p][a], f.first_named[p][a]);
      }
    }
  }
  return f;
}

}  // namespace warpwatch::server::gpu_health::power
