// File: common/series/comparable_series.h
// The one definition of what may be compared: a series is a case on a GPU model under one set of
// the measurement settings that change a timing. Runs measured with other settings form their own
// series (stored, listed and charted, never mixed into another series' baseline).
// docs/regressions.md ("Comparable series") lists the members and why each is there.
#ifndef WARPWATCH_COMMON_SERIES_COMPARABLE_SERIES_H_
#define WARPWATCH_COMMON_SERIES_COMPARABLE_SERIES_H_

#include <string>

#include "warpwatch/v1/job.pb.h"

namespace warpwatch::series {

// The engine's defaults for a MeasurementSettings field left at zero (worker/engine/
// engine_settings.h applies the same ones; tests/common/series checks that they agree).
inline constexpr int kDefaultMinSamples = 10;
inline constexpr int kDefaultMaxSamples = 2000;
inline constexpr double kDefaultTargetNoise = 0.005;
inline constexpr double kDefaultMinGpuTimeSeconds = 0.1;
inline constexpr double kDefaultPointTimeoutSeconds = 15;
inline constexpr int kDefaultSampleGroups = 1;
inline constexpr int kMaxSampleGroups = 16;

// Separates the settings key from "case@model" in a series id.
inline constexpr char kSettingsSeparator = '#';

// The settings of `settings` that change a timing, with the engine's defaults applied, as a
// canonical text: "" when every member is at the nightly default (so the nightly series keeps
// the plain "case@model" id it always had), else the members that differ, in a fixed order,
// e.g. "l2_flush=off;max_samples=500". Two settings give the same key exactly when the engine
// measures the same way under them. Members: L2 flush, the stopping rule (min and max samples,
// target noise, minimum GPU time, point timeout), sample groups, the counter pass. Not members:
// the job's families, axes, selector, labels, priority, attempts and timeout.
std::string SettingsKey(const v1::MeasurementSettings& settings);

// "<case canonical>@<GPU model>", plus "#<settings key>" when the key is not empty.
std::string SeriesId(const std::string& case_canonical, const std::string& gpu_model,
                     const std::string& settings_key);

// The settings key part of a series id ("" for the nightly series).
std::string SettingsKeyOf(const std::string& series_id);

}  // namespace warpwatch::series

#endif  // WARPWATCH_COMMON_SERIES_COMPARABLE_SERIES_H_
