// change_point_power: how often FindChangePoints finds a planted step, by nights after it, and how
// often it reports one in a stationary series (the change-point table of docs/regressions.md).
//   change_point_power [--noise 0.015] [--step 0.03] [--p 0.001] [--permutations 0 (t-test)]
#include <CLI/CLI.hpp>
#include <cstdio>
#include <random>

#include "server/detect/change_points.h"

namespace detect = warpwatch::server::detect;

int main(int argc, char** argv) {
  CLI::App app{"Detection rate of the change-point detector on synthetic series"};
  double noise = 0.015, step = 0.03;
  int before = 30, trials = 200, permutations = 0;
  uint64_t seed = 1;
  detect::ChangePointConfig config;
  app.add_option("--noise", noise, "Gaussian run noise, relative");
  app.add_option("--step", step, "planted step, relative");
  app.add_option("--before", before, "nights before the step");
  app.add_option("--trials", trials, "series per cell");
  app.add_option("--p", config.max_p_value, "max p-value");
  app.add_option("--permutations", permutations, "0: t-test; else the permutation test");
  app.add_option("--seed", seed, "seed");
  CLI11_PARSE(app, argc, argv);
  if (permutations > 0) {
    config.test = detect::ChangePointTest::kPermutation;
    config.permutations = static_cast<size_t>(permutations);
  }
  std::printf("noise %.2f %%, step %.1f %%, %d nights before, %s p <= %g, %d series per cell\n",
              100 * noise, 100 * step, before, permutations > 0 ? "permutation" : "t-test",
              config.max_p_value, trials);
  for (int after : {5, 10, 15, 20, 30}) {
    int found = 0, spurious = 0;
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> n(0, noise);
    for (int t = 0; t < trials; ++t) {
      std::vector<double> stepped, flat;
      for (int i = 0; i < before + after; ++i) {
        stepped.push_back((i >= before ? 1 + step : 1.0) * (1 + n(rng)));
        flat.push_back(1 + n(rng));
      }
      const auto points = detect::FindChangePoints(stepped, config);  // kept: *temporary dangles
      for (const detect::ChangePoint& c : *points) {
        if (c.index + 3 >= static_cast<size_t>(before) &&
            c.index <= static_cast<size_t>(before) + 3) {
          ++found;
          break;
        }
      }
      if (!detect::FindChangePoints(flat, config)->empty()) ++spurious;
    }
    std::printf(
        "%2d nights after: step found in %5.1f %%, stationary series with a change point %4.1f "
        "%%\n",
        after, 100.0 * found / trials, 100.0 * spurious / trials);
  }
  return 0;
}
