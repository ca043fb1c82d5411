// File: server/gpu_health/fingerprint.cc
#include "server/gpu_health/fingerprint.h"

#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <set>

#include "server/gpu_health/subsystem_map.h"

namespace warpwatch::server::gpu_health {
namespace {

std::string FingerprintPercent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", fraction * 100);
  return text;
}

std::string Runs(int n) { return std::to_string(n) + (n == 1 ? " run" : " runs"); }

std::string FormatTimestamp(const google::protobuf::Timestamp& ts) {
  return FormatTime(TimePoint(std::chrono::seconds(ts.seconds())));
}

std::string Describe(const v1::GpuSubsystemEvidence& e) {
  std::string text = e.name() + ": ";
  if (e.subsystem() == v1::GPU_SUBSYSTEM_CLOCKS_THROTTLING) {
    char clocks[96];
    if (e.sm_clock_mhz() > 0 && e.peers_sm_clock_mhz() > 0 &&
        e.sm_clock_mhz() < e.peers_sm_clock_mhz()) {
      std::snprintf(clocks, sizeof clocks, "SM clock %.0f MHz against %.0f MHz on its night",
                    e.sm_clock_mhz(), e.peers_sm_clock_mhz());
      text += std::string(clocks) + " (-" + FingerprintPercent(e.max_change()) + " %)";
    } else {
      text += "most cases throttled while its night's peers were not";
    }
  } else if (e.subsystem() == v1::GPU_SUBSYSTEM_INTERCONNECT) {
    // Each case names its pair and how it is worse: fewer links than seen before, or slower than
    // the node's other pairs.
    const int pairs = std::max(e.total_cases(), e.cases_size());
    constexpr int kNamed = 3;
    for (int i = 0; i < e.cases_size() && i < kNamed; ++i) {
      text += (i == 0 ? "" : ", ") + e.cases(i).case_key();
    }
    if (pairs > kNamed) text += ", and " + std::to_string(pairs - kNamed) + " more";
  } else {
    char z[32];
    std::snprintf(z, sizeof z, "%.1f", e.max_z());
    const int cases = std::max(e.total_cases(), e.cases_size());
    text += std::to_string(cases) + " cases " + FingerprintPercent(e.min_change()) + "-" +
            FingerprintPercent(e.max_change()) + " % slower than same-night peers (median " +
            FingerprintPercent(e.median_change()) + " %, z up to " + z + ")";
  }
  text += " for " + Runs(e.runs()) + " since " + FormatTimestamp(e.since());
  if (!e.ongoing()) text += ", normal again on the newest run";
  return text;
}

}  // namespace

std::string FormatTime(TimePoint at) {
  const std::time_t t = std::chrono::system_clock::to_time_t(at);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm);
  return text;
}

std::string Fingerprint(const v1::GpuHealth& health, int runs_to_change) {
  std::string text;
  auto add = [&text](const std::string& part) { text += (text.empty() ? "" : "; ") + part; };
  if (health.state() == v1::GPU_HEALTH_STATE_UNKNOWN) add(health.reason());
  const bool healthy = health.computed_state() == v1::GPU_HEALTH_STATE_HEALTHY;
  for (const v1::GpuSubsystemEvidence& e : health.evidence()) {
    if (healthy && e.runs() < runs_to_change) {
      add("watching " + Describe(e) + " (" + std::to_string(runs_to_change) +
          " consecutive runs change the state)");
    } else {
      add(Describe(e));
    }
  }
  if (health.evidence_size() == 0 && health.judged_runs() > 0) {
    add("no subsystem slower than its same-night peers on its newest judged run");
  }
  // Subsystems whose episode ended on the newest run were described above ("normal again").
  std::set<int> described;
  for (const v1::GpuSubsystemEvidence& e : health.evidence()) described.insert(e.subsystem());
  std::string normal;
  for (int s : health.normal()) {
    if (described.count(s) > 0) continue;
    normal +=
        (normal.empty() ? "" : ", ") + std::string(SubsystemName(static_cast<v1::GpuSubsystem>(s)));
  }
  if (!normal.empty()) add("normal: " + normal);
  return text;
}

}  // namespace warpwatch::server::gpu_health
