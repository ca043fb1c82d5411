// File: tests/server/gpu_health/power/study_report.cc
#include "tests/server/gpu_health/power/study_report.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "server/detect/robust_stats.h"
#include "server/gpu_health/subsystem_map.h"
#include "tests/server/gpu_health/power/proportion.h"

namespace warpwatch::server::gpu_health::power {
namespace {

std::string Format(const char* format, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  return buffer;
}

// "3.1e-04 [2.0e-04, 4.8e-04]" (k/n)
std::string RateText(const Proportion& p, double scale) {
  return Format("%.2e [%.2e, %.2e] (%lld/%lld)", p.rate * scale, p.low * scale, p.high * scale,
                static_cast<long long>(p.events), static_cast<long long>(p.trials));
}

std::string SubsystemCounts(const std::map<v1::GpuSubsystem, int64_t>& counts) {
  std::string out;
  for (const auto& [subsystem, n] : counts) {
    if (!out.empty()) out += ", ";
    out +=
        Format("%s %lld", std::string(SubsystemName(subsystem)).c_str(), static_cast<long long>(n));
  }
  return out.empty() ? "none" : out;
}

bool HostSide(const std::string& family) {
  return family == "transfer.host_device" || family == "memory.managed" ||
         family == "memory.allocation_churn" || family == "concurrency.streams" ||
         family == "dynamic_parallelism";
}

std::string Spread(std::vector<double> v) {
  if (v.empty()) return "-";
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return 100 * v[static_cast<size_t>(q * (v.size() - 1))]; };
  return Format("median %.3f %%, p90 %.3f %%, max %.3f %%", at(0.5), at(0.9), at(1.0));
}

}  // namespace

std::string PoolText(const std::string& name, const RunPool& pool) {
  std::string out = Format("pool %s: %zu runs of %zu GPUs, %zu cases\n", name.c_str(),
                           pool.runs.size(), pool.gpus.size(), pool.case_keys.size());
  for (const PoolRun& r : pool.runs) out += "  " + r.path + " (GPU " + pool.gpus[r.gpu] + ")\n";
  for (bool host : {false, true}) {
    std::vector<double> residual, offset, raw;
    size_t n = 0;
    for (size_t c = 0; c < pool.case_keys.size(); ++c) {
      if (HostSide(pool.families[c]) != host) continue;
      ++n;
      residual.push_back(pool.residual_sigma[c]);
      offset.push_back(pool.offset_sigma[c]);
      raw.push_back(pool.shrink[c] > 0 ? pool.offset_sigma[c] / pool.shrink[c] : NAN);
    }
    raw.erase(std::remove_if(raw.begin(), raw.end(), [](double x) { return std::isnan(x); }),
              raw.end());
    out += Format("  %s cases (%zu): residual sd %s\n", host ? "host-side" : "kernel-only", n,
                  Spread(residual).c_str());
    out += Format("    GPU offset sd drawn %s\n", Spread(offset).c_str());
  }
  return out;
}

std::string FalseAlarmText(const FalseAlarmFigures& f) {
  std::string out = Format(
      "G=%d GPUs: %d fleets x %d counted nights (after %d burn-in nights) = %lld GPU-nights\n",
      f.gpus, f.trials, f.nights, f.burn_in, static_cast<long long>(f.gpu_nights));
  out += Format("  judged runs %lld; slower outlier cases per run %.4f\n",
                static_cast<long long>(f.judged_runs),
                f.gpu_nights > 0 ? static_cast<double>(f.slower_outliers) / f.gpu_nights : 0.0);
  out += "  P(run sick in some subsystem) = watching: " +
         RateText(RateOf(f.watching_runs, f.gpu_nights), 1) + "\n";
  out += "  P(run failing) " + RateText(RateOf(f.failing_runs, f.gpu_nights), 1) + "\n";
  out += "  sick runs by subsystem: " + SubsystemCounts(f.sick_runs_by_subsystem) + "\n";
  for (const PolicyTally& t : f.policies) {
    const Proportion drains = RateOf(t.drains, f.gpu_nights);
    out +=
        Format("  runs_to_change %d: false drains (HEALTHY -> DEGRADED/FAILING) per GPU-night %s\n",
               t.runs_to_change, RateText(drains, 1).c_str());
    out += Format("    per night on 1000 GPUs %.3g [%.3g, %.3g]; per GPU-year %.3g [%.3g, %.3g]\n",
                  1000 * drains.rate, 1000 * drains.low, 1000 * drains.high, 365 * drains.rate,
                  365 * drains.low, 365 * drains.high);
    out += "    enters DEGRADED " + RateText(RateOf(t.degraded_entries, f.gpu_nights), 1) +
           "; enters FAILING " + RateText(RateOf(t.failing_entries, f.gpu_nights), 1) + "\n";
    out += "    GPU-nights not HEALTHY " + RateText(RateOf(t.not_healthy_nights, f.gpu_nights), 1) +
           Format("; UNKNOWN %lld\n", static_cast<long long>(t.unknown_nights));
    out += "    drains by subsystem: " + SubsystemCounts(t.drains_by_subsystem) + "\n";
  }
  return out;
}

std::string PowerText(const std::string& fault, const PowerFigures& f,
                      const std::vector<int>& runs_to_change) {
  std::string out =
      Format("power, G=%d, %s, %d fleets: share DEGRADED or FAILING after n faulty nights\n",
             f.gpus, fault.c_str(), f.trials);
  for (size_t p = 0; p < runs_to_change.size(); ++p) {
    out += Format("  runs_to_change %d (%lld HEALTHY before):", runs_to_change[p],
                  static_cast<long long>(f.eligible[p]));
    for (size_t a = 0; a < f.after_nights.size(); ++a) {
      const Proportion x = RateOf(f.not_healthy[p][a], f.eligible[p]);
      out += Format("  n=%d %.3f [%.3f, %.3f] (failing %lld, named %lld)", f.after_nights[a],
                    x.rate, x.low, x.high, static_cast<long long>(f.failing[p][a]),
                    static_cast<long long>(f.named[p][a]));
    }
    out += "\n";
  }
  for (size_t p = 0; p < runs_to_change.size(); ++p) {
    if (runs_to_change[p] != 2 && runs_to_change.size() > 1) continue;
    for (size_t a = 0; a < f.after_nights.size(); ++a) {
      out += Format("  runs_to_change %d, n=%d, the fingerprint's lead: %s\n", runs_to_change[p],
                    f.after_nights[a], SubsystemCounts(f.first_named[p][a]).c_str());
    }
  }
  return out;
}

}  // namespace warpwatch::server::gpu_health::power
