// File: tests/server/gpu_health/power/run_pool.cc
#include "tests/server/gpu_health/power/run_pool.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "server/detect/baseline.h"
#include "server/detect/robust_stats.h"

namespace warpwatch::server::gpu_health::power {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kNoResidual = std::numeric_limits<double>::quiet_NaN();

using detect::power::FixtureRun;

// Per run, case key -> good median.
std::map<std::string, double> GoodMedians(const FixtureRun& run) {
  const detect::DetectionConfig goodness;
  std::map<std::string, double> out;
  for (const detect::CasePoint& c : run.cases) {
    if (detect::IsGoodRun(c.point, goodness)) out[c.case_key] = c.point.median_seconds;
  }
  return out;
}

// Per GPU (sorted UUIDs), per case key: the median over the GPU's runs' good points.
std::map<std::string, std::map<std::string, double>> GpuMedians(
    const std::vector<FixtureRun>& runs) {
  std::map<std::string, std::map<std::string, std::vector<double>>> values;
  for (const FixtureRun& run : runs) {
    for (const auto& [key, median] : GoodMedians(run))
      values[run.device_uuid][key].push_back(median);
  }
  std::map<std::string, std::map<std::string, double>> out;
  for (auto& [gpu, cases] : values) {
    for (auto& [key, medians] : cases) out[gpu][key] = detect::Median(std::move(medians));
  }
  return out;
}

std::vector<double> ResidualsOf(const FixtureRun& run, const std::vector<std::string>& case_keys,
                                const std::map<std::string, double>& gpu_medians) {
  const std::map<std::string, double> medians = GoodMedians(run);
  std::vector<double> residual(case_keys.size(), kNoResidual);
  for (size_t c = 0; c < case_keys.size(); ++c) {
    auto point = medians.find(case_keys[c]);
    auto level = gpu_medians.find(case_keys[c]);
    if (point != medians.end() && level != gpu_medians.end()) {
      residual[c] = point->second / level->second - 1;
    }
  }
  return residual;
}

}  // namespace

StatusOr<RunPool> BuildRunPool(const std::vector<FixtureRun>& runs, bool shrink_offsets) {
  const auto gpu_medians = GpuMedians(runs);
  std::map<std::string, int> runs_of;
  for (const FixtureRun& run : runs) ++runs_of[run.device_uuid];
  if (runs_of.size() < 2) return InvalidArgumentError("the pool needs runs of at least 2 GPUs");
  for (const auto& [gpu, n] : runs_of) {
    if (n < 2) return InvalidArgumentError("GPU " + gpu + " has fewer than 2 runs in the pool");
  }
  RunPool pool;
  std::set<std::string> keys;
  for (const auto& [gpu, cases] : gpu_medians) {
    pool.gpus.push_back(gpu);
    for (const auto& [key, median] : cases) keys.insert(key);
  }
  for (const std::string& key : keys) {
    for (const auto& [gpu, cases] : gpu_medians) {
      if (cases.count(key) == 0) {
        return InvalidArgumentError("GPU " + gpu + " has no good point of " + key);
      }
    }
  }
  pool.case_keys.assign(keys.begin(), keys.end());
  const size_t cases = pool.case_keys.size();
  const size_t k = pool.gpus.size();
  for (const std::string& key : pool.case_keys)
    pool.families.push_back(key.substr(0, key.find('/')));
  for (const FixtureRun& run : runs) {
    PoolRun r;
    r.path = run.path;
    r.gpu = static_cast<int>(std::find(pool.gpus.begin(), pool.gpus.end(), run.device_uuid) -
                             pool.gpus.begin());
    r.residual = ResidualsOf(run, pool.case_keys, gpu_medians.at(run.device_uuid));
    pool.runs.push_back(std::move(r));
  }
  pool.reference_seconds.assign(cases, 0);
  pool.offset_basis.assign(k, std::vector<double>(cases, 0));
  pool.shrink.assign(cases, 1);
  pool.offset_sigma.assign(cases, 0);
  pool.residual_sigma.assign(cases, 0);
  for (size_t c = 0; c < cases; ++c) {
    for (size_t g = 0; g < k; ++g) {
      pool.reference_seconds[c] += gpu_medians.at(pool.gpus[g]).at(pool.case_keys[c]) / k;
    }
    double observed = 0;  // sum of squared offsets
    for (size_t g = 0; g < k; ++g) {
      const double d =
          gpu_medians.at(pool.gpus[g]).at(pool.case_keys[c]) / pool.reference_seconds[c] - 1;
      pool.offset_basis[g][c] = d;
      observed += d * d;
    }
    observed /= static_cast<double>(k - 1);
    double squares = 0, inverse_runs = 0;
    size_t points = 0;
    std::map<int, size_t> points_of;  // good points per GPU
    for (const PoolRun& r : pool.runs) {
      if (std::isnan(r.residual[c])) continue;
      squares += r.residual[c] * r.residual[c];
      ++points;
      ++points_of[r.gpu];
    }
    for (const auto& [gpu, n] : points_of) inverse_runs += 1.0 / static_cast<double>(n) / k;
    const double dof = static_cast<double>(points) - static_cast<double>(k);
    const double residual_variance = dof > 0 ? squares / dof : 0;
    pool.residual_sigma[c] = std::sqrt(residual_variance);
    const double noise = kPi / 2 * residual_variance * inverse_runs;
    if (shrink_offsets) {
      pool.shrink[c] = observed > 0 ? std::sqrt(std::max(0.0, 1 - noise / observed)) : 0;
    }
    for (size_t g = 0; g < k; ++g) pool.offset_basis[g][c] *= pool.shrink[c];
    pool.offset_sigma[c] = std::sqrt(observed) * pool.shrink[c];
  }
  return pool;
}

StatusOr<std::vector<PoolRun>> ResidualsAgainstClean(const RunPool& pool,
                                                     const std::vector<FixtureRun>& clean,
                                                     const std::vector<FixtureRun>& runs) {
  const auto gpu_medians = GpuMedians(clean);
  std::vector<PoolRun> out;
  for (const FixtureRun& run : runs) {
    auto gpu = std::find(pool.gpus.begin(), pool.gpus.end(), run.device_uuid);
    auto medians = gpu_medians.find(run.device_uuid);
    if (gpu == pool.gpus.end() || medians == gpu_medians.end()) {
      return InvalidArgumentError(run.path + ": GPU " + run.device_uuid + " is not in the pool");
    }
    PoolRun r;
    r.path = run.path;
    r.gpu = static_cast<int>(gpu - pool.gpus.begin());
    r.residual = ResidualsOf(run, pool.case_keys, medians->second);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace warpwatch::server::gpu_health::power
