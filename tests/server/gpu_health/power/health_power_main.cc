// health_power: the false-drain rate and detection power of the GPU health verdict on virtual
// fleets resampled from real recorded runs (docs/results/health_false_alarms.md).
//   health_power --fixtures tests/fixtures [--seed 1 --gpus 8,32,128 --gpu-nights 200000]
// Prints a plain-text report; the .json.gz fixtures are decompressed under --scratch and removed.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "tests/server/gpu_health/power/health_study.h"
#include "tests/server/gpu_health/power/run_files.h"
#include "tests/server/gpu_health/power/run_pool.h"
#include "tests/server/gpu_health/power/study_report.h"

namespace hp = warpwatch::server::gpu_health::power;
namespace v1 = warpwatch::v1;

namespace {

struct Pool {
  std::string name;
  hp::RunPool pool;
  std::vector<hp::PoolRun> fault_runs;  // the recorded faulty GPU's runs, if the fixture has some
};

warpwatch::StatusOr<Pool> LoadPool(const std::string& name, const std::string& folder,
                                   const std::string& clean, const std::string& faulty,
                                   const std::string& scratch, bool shrink) {
  ASSIGN_OR_RETURN(auto runs, hp::ReadRunFiles(hp::ListRunFiles(folder, clean), scratch));
  Pool p;
  p.name = name;
  ASSIGN_OR_RETURN(p.pool, hp::BuildRunPool(runs, shrink));
  if (!faulty.empty()) {
    ASSIGN_OR_RETURN(auto bad, hp::ReadRunFiles(hp::ListRunFiles(folder, faulty), scratch));
    ASSIGN_OR_RETURN(p.fault_runs, hp::ResidualsAgainstClean(p.pool, runs, bad));
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"False drains and power of warpwatch's GPU health verdict on virtual fleets"};
  std::string fixtures = "tests/fixtures";
  std::string scratch = "/tmp/health_power";
  hp::StudyOptions options;
  std::vector<int> sizes = {8, 32, 128};
  std::vector<int> power_sizes = {32};
  std::vector<std::string> pools = {"h200x4", "h100"};
  int64_t gpu_nights = 200000;
  int power_trials = 200;
  int power_burn_in = 7;
  std::vector<double> slowdowns = {0.03, 0.05, 0.10};
  bool raw_offsets = false;
  bool complete_night = false;
  bool with_before = false;
  app.add_option("--fixtures", fixtures, "folder holding h100x4_health/ and h100_nightly_runs/");
  app.add_option("--scratch", scratch, "where .json.gz runs are decompressed (then removed)");
  app.add_option("--seed", options.seed, "study seed");
  app.add_option("--jobs", options.jobs, "threads (the figures do not depend on it)");
  app.add_option("--pools", pools, "h200x4, h100")->delimiter(',');
  app.add_option("--gpus", sizes, "fleet sizes (false drains)")->delimiter(',');
  app.add_option("--gpu-nights", gpu_nights, "counted GPU-nights per fleet size, at least");
  app.add_option("--nights", options.nights, "counted nights per fleet");
  app.add_option("--burn-in", options.burn_in, "nights before counting (false drains)");
  app.add_option("--power-gpus", power_sizes, "fleet sizes (power)")->delimiter(',');
  app.add_option("--power-trials", power_trials, "fleets per fault (power); 0: no power");
  app.add_option("--power-burn-in", power_burn_in, "nights before the fault starts");
  app.add_option("--slowdowns", slowdowns, "injected slowdowns (power)")->delimiter(',');
  app.add_option("--offset-scale", options.fleet.offset_scale, "GPU offsets x this (0: none)");
  app.add_flag("--raw-offsets", raw_offsets, "offsets as observed, not shrunk by run noise");
  app.add_flag("--complete-night", complete_night, "one fleet view of the whole night");
  app.add_option("--judge-from", options.fleet.judge_from,
                 "judge a night's views from ceil(F x G) runs in on (a scheduled night); "
                 "default: from the first view of >= 4 runs (today's)")
      ->check(CLI::Range(0.0, 1.0))
      ->check([](const std::string& v) { return std::stod(v) > 0 ? "" : "F must be > 0"; });
  app.add_flag("--with-before", with_before, "H200x4: add the run_bf_* nights (older worker)");
  CLI11_PARSE(app, argc, argv);
  options.fleet.growing_night = !complete_night;

  std::printf("health_power");
  for (int i = 1; i < argc; ++i) std::printf(" %s", argv[i]);
  char growing[96];
  if (options.fleet.judge_from > 0) {
    std::snprintf(growing, sizeof(growing), "growing, judged from ceil(%.2f x G) runs in",
                  options.fleet.judge_from);
  } else {
    std::snprintf(growing, sizeof(growing), "growing (the server's)");
  }
  std::printf("\nseed %llu; night view: %s; GPU offsets: %s x %.2f\n",
              static_cast<unsigned long long>(options.seed),
              complete_night ? "complete night" : growing, raw_offsets ? "raw" : "shrunk",
              options.fleet.offset_scale);
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& name : pools) {
    warpwatch::StatusOr<Pool> pool =
        name == "h200x4" ? LoadPool(name, fixtures + "/h100x4_health/h200x4_l1",
                                    with_before ? R"(run_(h4|bf)_\d+_g\d_clean\.json\.gz)"
                                                : R"(run_h4_\d+_g\d_clean\.json\.gz)",
                                    R"(run_h4_\d+_g\d_contention\.json\.gz)", scratch, !raw_offsets)
                         : LoadPool(name, fixtures + "/h100_nightly_runs",
                                    R"(h100_run_l\d_\d+\.json)", "", scratch, !raw_offsets);
    if (!pool.ok()) {
      std::cerr << name << ": " << pool.status().ToString() << "\n";
      return 1;
    }
    std::printf("\n%s", hp::PoolText(name, pool->pool).c_str());
    for (int g : sizes) {
      hp::StudyOptions o = options;
      const int64_t per_fleet = static_cast<int64_t>(g) * o.nights;
      o.trials = static_cast<int>(std::max<int64_t>(1, (gpu_nights + per_fleet - 1) / per_fleet));
      std::printf("\n%s", hp::FalseAlarmText(hp::MeasureFalseAlarms(pool->pool, g, o)).c_str());
      std::fflush(stdout);
    }
    if (power_trials <= 0) continue;
    hp::StudyOptions o = options;
    o.trials = power_trials;
    o.burn_in = power_burn_in;
    std::vector<std::pair<std::string, hp::InjectedFault>> faults;
    for (auto [subsystem, label] :
         {std::pair{v1::GPU_SUBSYSTEM_HBM_BANDWIDTH, "HBM bandwidth"},
          std::pair{v1::GPU_SUBSYSTEM_PCIE_TRANSFERS, "PCIe transfers"}}) {
      for (double s : slowdowns) {
        hp::InjectedFault f;
        f.subsystem = subsystem;
        f.slowdown = s;
        char text[64];
        std::snprintf(text, sizeof(text), "+%.1f %% on %s", 100 * s, label);
        faults.emplace_back(text, f);
      }
    }
    if (!pool->fault_runs.empty()) {
      hp::InjectedFault f;
      f.runs = pool->fault_runs;
      faults.emplace_back("the recorded copy-engine contention runs, in turn", f);
    }
    const std::vector<int> after = {2, 3, 5};
    for (int g : power_sizes) {
      for (const auto& [label, fault] : faults) {
        std::printf("\n%s", hp::PowerText(label, hp::MeasurePower(pool->pool, g, fault, after, o),
                                          o.runs_to_change)
                                .c_str());
        std::fflush(stdout);
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("\nelapsed %.0f s\n", seconds);
  return 0;
}
