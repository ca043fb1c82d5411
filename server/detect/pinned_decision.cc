// DecideAgainstPinned: the level of the GPU's pinned runs, the spread of the noise model.
#include "server/detect/pinned_decision.h"

#include "server/detect/baseline.h"

namespace warpwatch::server::detect {

std::optional<PinnedDecision> DecideAgainstPinned(const RunPoint& candidate,
                                                  const std::vector<RunPoint>& pinned,
                                                  const std::vector<RunPoint>& rolling,
                                                  const DetectionConfig& config,
                                                  const NoiseEstimate& model_noise,
                                                  size_t decisions_in_run) {
  if (!IsGoodRun(candidate, config)) return std::nullopt;  // the rolling path says why
  const bool own_only = config.same_device_only && !candidate.device_uuid.empty();
  std::vector<RunPoint> good;
  for (const RunPoint& run : pinned) {
    if (run.run_id == candidate.run_id || !IsGoodRun(run, config)) continue;
    if (own_only && run.device_uuid != candidate.device_uuid) continue;
    good.push_back(run);
  }
  if (good.empty()) return std::nullopt;
  const std::vector<RunPoint> window = SelectBaseline(rolling, config, candidate.device_uuid);
  const NoiseEstimate own = SuccessiveDifferenceNoise(window, config);
  PinnedDecision out;
  out.decision = DecideAgainstRuns(candidate, good, CombineNoise(model_noise, own, config), config,
                                   decisions_in_run);
  out.spread = "the noise model (" + NoiseText(out.decision.noise) +
               "; own pairs from the rolling window's " + std::to_string(window.size()) +
               " runs of this GPU)";
  return out;
}

}  // namespace warpwatch::server::detect
