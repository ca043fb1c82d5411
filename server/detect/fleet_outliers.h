// Fleet view: the same case measured in one night on several devices of one GPU model; a device
// whose median lies far from the others' is the sick node, even when nothing changed over time.
#ifndef WARPWATCH_SERVER_DETECT_FLEET_OUTLIERS_H_
#define WARPWATCH_SERVER_DETECT_FLEET_OUTLIERS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "server/detect/run_point.h"
#include "server/detect/verdict.h"

namespace warpwatch::server::detect {

struct FleetConfig {
  // |robust z| of a device against the other devices beyond which it is an outlier: 3.5, the
  // modified z-score cut of Iglewicz and Hoaglin for outliers.
  double z_threshold = 3.5;
  // ... and its median differs from the others' by at least this (relative).
  double min_relative_change = 0.03;
  double mad_floor_relative = 0.005;  // as DetectionConfig
  double max_throttled_fraction = 0.05;
  // Good devices needed to judge any (each is judged against the others: 3 others at least).
  size_t min_devices = 4;
};

struct DeviceJudgement {
  std::string device_uuid;
  int64_t run_id = 0;
  double median_seconds = 0;
  double others_median = 0;  // median of the other good devices
  double others_sigma = 0;   // their robust sigma (scaled MAD, floored)
  double change = 0;         // median / others_median - 1
  double z = 0;
  bool outlier = false;
  Verdict direction = Verdict::kSame;  // kSlower or kFaster for outliers
};

struct FleetView {
  bool judged = false;                   // false: fewer than min_devices good devices
  std::string reason;                    // why not judged
  std::vector<DeviceJudgement> devices;  // good devices, in input order
  std::vector<std::string> ignored;      // "uuid: why" for devices that were not good
};

// Leave-one-out robust z of each good device's median against the other good devices' medians.
// Good: as baseline.h (measured, verified, not throttled, positive finite median). Never fails.
// `case_noise_relative`: the case's between-run relative sigma on this model (the noise model's
// successive-difference estimate). One device's run median moves that much between runs of
// identical code by itself, so the others' sigma is at least that (times their median): a few
// peers of a night can agree closely by chance on a case whose medians wander 10 % between runs
// (host-side cases on a node running four suites at once), and a MAD of a few values is no noise
// estimate. NaN (the noise model has no pair yet): not judged. Against the MAD of its peers alone
// a device of identical behaviour reads |z| >= 3.5 in 27 % of cases with 3 peers, 7 % with 7,
// 0.6 % with 29, against 0.4 % with 3 peers and the case's noise as the floor (normal draws,
// FleetOutliersTest.WithoutTheCaseNoiseNoFleetIsJudged). The noise model has pairs once a GPU
// has two analysed runs of the case: a new fleet's, or a new case's, third night.
FleetView FindFleetOutliers(const std::vector<RunPoint>& devices, const FleetConfig& config,
                            double case_noise_relative);

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_FLEET_OUTLIERS_H_
