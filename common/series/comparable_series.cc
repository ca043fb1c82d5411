// File: common/series/comparable_series.cc
#include "common/series/comparable_series.h"

#include <algorithm>
#include <cstdio>

namespace warpwatch::series {
namespace {

std::string Number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.6g", v);
  return buffer;
}

void Add(std::string* key, const std::string& member) {
  if (!key->empty()) *key += ';';
  *key += member;
}

}  // namespace

std::string SettingsKey(const v1::MeasurementSettings& s) {
  const int min_samples = s.min_samples() > 0 ? s.min_samples() : kDefaultMinSamples;
  int max_samples = s.max_samples() > 0 ? s.max_samples() : kDefaultMaxSamples;
  max_samples = std::max(max_samples, min_samples);  // as the engine raises it
  const double noise = s.target_noise() > 0 ? s.target_noise() : kDefaultTargetNoise;
  const double min_time =
      s.min_gpu_time_seconds() > 0 ? s.min_gpu_time_seconds() : kDefaultMinGpuTimeSeconds;
  const double timeout =
      s.point_timeout_seconds() > 0 ? s.point_timeout_seconds() : kDefaultPointTimeoutSeconds;
  const int groups =
      s.sample_groups() > 0 ? std::min(s.sample_groups(), kMaxSampleGroups) : kDefaultSampleGroups;
  const bool flush = s.has_l2_flush() ? s.l2_flush() : true;

  std::string key;
  if (!flush) Add(&key, "l2_flush=off");
  if (min_samples != kDefaultMinSamples) Add(&key, "min_samples=" + std::to_string(min_samples));
  if (max_samples != kDefaultMaxSamples) Add(&key, "max_samples=" + std::to_string(max_samples));
  if (noise != kDefaultTargetNoise) Add(&key, "target_noise=" + Number(noise));
  if (min_time != kDefaultMinGpuTimeSeconds) Add(&key, "min_gpu_time=" + Number(min_time) + "s");
  if (timeout != kDefaultPointTimeoutSeconds) Add(&key, "timeout=" + Number(timeout) + "s");
  if (groups != kDefaultSampleGroups) Add(&key, "sample_groups=" + std::to_string(groups));
  if (s.collect_counters()) Add(&key, "counters=on");
  return key;
}

std::string SeriesId(const std::string& case_canonical, const std::string& gpu_model,
                     const std::string& settings_key) {
  std::string id = case_canonical + "@" + gpu_model;
  if (!settings_key.empty()) id += kSettingsSeparator + settings_key;
  return id;
}

std::string SettingsKeyOf(const std::string& series_id) {
  const size_t at = series_id.rfind('@');
  const size_t hash = series_id.find(kSettingsSeparator, at == std::string::npos ? 0 : at);
  return hash == std::string::npos ? "" : series_id.substr(hash + 1);
}

}  // namespace warpwatch::series
