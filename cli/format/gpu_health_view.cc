// File: cli/format/gpu_health_view.cc
#include "cli/format/gpu_health_view.h"

#include <algorithm>
#include <cctype>

#include "cli/format/duration.h"
#include "cli/format/table.h"

namespace warpwatch::cli {
namespace {

int Rank(v1::GpuHealthState state) {
  switch (state) {
    case v1::GPU_HEALTH_STATE_FAILING:
      return 3;
    case v1::GPU_HEALTH_STATE_DEGRADED:
      return 2;
    case v1::GPU_HEALTH_STATE_HEALTHY:
      return 0;
    default:
      return 1;  // unknown
  }
}

std::string UpperCase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return text;
}

std::string Where(const v1::GpuHealth& g) {
  return g.device_uuid() + " (" + (g.hostname().empty() ? "?" : g.hostname()) + " gpu " +
         std::to_string(g.gpu_index()) + ")";
}

}  // namespace

std::string GpuHealthStateName(v1::GpuHealthState state) {
  switch (state) {
    case v1::GPU_HEALTH_STATE_HEALTHY:
      return "healthy";
    case v1::GPU_HEALTH_STATE_DEGRADED:
      return "degraded";
    case v1::GPU_HEALTH_STATE_FAILING:
      return "failing";
    default:
      return "unknown";
  }
}

v1::GpuHealthState WorstState(const std::vector<v1::GpuHealth>& gpus) {
  if (gpus.empty()) return v1::GPU_HEALTH_STATE_UNKNOWN;
  v1::GpuHealthState worst = v1::GPU_HEALTH_STATE_HEALTHY;
  for (const v1::GpuHealth& g : gpus) {
    if (Rank(g.state()) > Rank(worst)) worst = g.state();
  }
  return worst;
}

void PrintGpuHealthTable(const std::vector<v1::GpuHealth>& gpus, std::ostream& out) {
  Table table({"HOST", "GPU", "UUID", "MODEL", "STATE", "SINCE", "FINGERPRINT"});
  for (const v1::GpuHealth& g : gpus) {
    std::string fingerprint = g.fingerprint();
    if (g.has_repaired()) {
      fingerprint += " [repaired by " + g.repaired().actor() + " " +
                     FormatTimestamp(g.repaired().at()) + ": " + g.repaired().note() + "]";
    }
    table.AddRow({g.hostname(), std::to_string(g.gpu_index()), g.device_uuid(), g.gpu_model(),
                  GpuHealthStateName(g.state()), g.has_since() ? FormatTimestamp(g.since()) : "-",
                  fingerprint});
  }
  table.Print(out);
}

void PrintNagiosCheck(const std::vector<v1::GpuHealth>& gpus, std::ostream& out) {
  const v1::GpuHealthState worst = WorstState(gpus);
  out << "WARPWATCH GPU HEALTH " << UpperCase(GpuHealthStateName(worst)) << " - ";
  if (gpus.empty()) {
    out << "no GPU matches\n";
    return;
  }
  int matching = 0;
  const v1::GpuHealth* first = nullptr;
  for (const v1::GpuHealth& g : gpus) {
    if (g.state() != worst) continue;
    ++matching;
    if (first == nullptr) first = &g;
  }
  out << matching << " of " << gpus.size() << " GPU" << (gpus.size() == 1 ? "" : "s") << " "
      << GpuHealthStateName(worst) << ": " << Where(*first) << ": " << first->fingerprint() << "\n";
  for (const v1::GpuHealth& g : gpus) {
    if (&g == first || g.state() == v1::GPU_HEALTH_STATE_HEALTHY) continue;
    out << GpuHealthStateName(g.state()) << " " << Where(g) << ": " << g.fingerprint() << "\n";
  }
}

}  // namespace warpwatch::cli
