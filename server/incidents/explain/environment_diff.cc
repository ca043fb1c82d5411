// File: server/incidents/explain/environment_diff.cc
#include "server/incidents/explain/environment_diff.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "server/incidents/explain/number_text.h"

namespace warpwatch::server::incidents {
namespace {

using Env = v1::RunEnvironment;

// A field compared by exact text.
struct TextField {
  const char* name;
  v1::DifferenceArea area;
  std::function<std::string(const Env&)> read;
};

std::string Join(const google::protobuf::RepeatedPtrField<std::string>& values) {
  std::vector<std::string> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  std::string out;
  for (const std::string& v : sorted) out += (out.empty() ? "" : ",") + v;
  return out;
}

const std::vector<TextField>& TextFields() {
  using A = v1::DifferenceArea;
  constexpr A kSoftware = v1::DIFFERENCE_AREA_SOFTWARE;
  constexpr A kDevice = v1::DIFFERENCE_AREA_DEVICE;
  constexpr A kClocks = v1::DIFFERENCE_AREA_CLOCKS;
  static const std::vector<TextField> fields = {
      {"driver_version", kSoftware, [](const Env& e) { return e.driver_version(); }},
      {"cuda_runtime_version", kSoftware,
       [](const Env& e) { return std::to_string(e.cuda_runtime_version()); }},
      {"cuda_driver_version", kSoftware,
       [](const Env& e) { return std::to_string(e.cuda_driver_version()); }},
      {"worker_version", kSoftware, [](const Env& e) { return e.worker_version(); }},
      {"suite_version", kSoftware, [](const Env& e) { return e.suite_version(); }},
      {"built_architectures", kSoftware,
       [](const Env& e) { return Join(e.built_architectures()); }},
      {"code_architecture", kSoftware, [](const Env& e) { return e.code_architecture(); }},
      {"device.uuid", kDevice, [](const Env& e) { return e.device().uuid(); }},
      {"hostname", kDevice, [](const Env& e) { return e.hostname(); }},
      {"device.pci_bus_id", kDevice, [](const Env& e) { return e.device().pci_bus_id(); }},
      {"device.ecc_enabled", kDevice,
       [](const Env& e) { return std::string(e.device().ecc_enabled() ? "true" : "false"); }},
      {"device.max_sm_clock_mhz", kDevice,
       [](const Env& e) { return std::to_string(e.device().max_sm_clock_mhz()); }},
      {"device.max_memory_clock_mhz", kDevice,
       [](const Env& e) { return std::to_string(e.device().max_memory_clock_mhz()); }},
      {"device_architecture", kDevice, [](const Env& e) { return e.device_architecture(); }},
      {"sm_clock_policy", kClocks, [](const Env& e) { return e.sm_clock_policy(); }},
      {"sm_clock_setting_mhz", kClocks,
       [](const Env& e) { return NumberText(e.sm_clock_setting_mhz()); }},
      {"clock_source", kClocks, [](const Env& e) { return e.clock_source(); }},
  };
  return fields;
}

// A field that varies between runs: a difference only beyond `tolerance` of the baseline range
// (relative when `relative`, else absolute). Zero means unknown and is never compared.
struct NumericField {
  const char* name;
  v1::DifferenceArea area;
  std::function<double(const Env&)> read;
  double tolerance;
  bool relative;
};

const std::vector<NumericField>& NumericFields() {
  constexpr v1::DifferenceArea kClocks = v1::DIFFERENCE_AREA_CLOCKS;
  constexpr v1::DifferenceArea kConditions = v1::DIFFERENCE_AREA_CONDITIONS;
  static const std::vector<NumericField> fields = {
      {"sm_clock_mhz_start", kClocks, [](const Env& e) { return e.sm_clock_mhz_start(); }, 0.02,
       true},
      {"memory_clock_mhz_start", kClocks, [](const Env& e) { return e.memory_clock_mhz_start(); },
       0.02, true},
      {"temperature_c_start", kConditions, [](const Env& e) { return e.temperature_c_start(); },
       5.0, false},
      {"temperature_c_end", kConditions, [](const Env& e) { return e.temperature_c_end(); }, 5.0,
       false},
      {"power_w_start", kConditions, [](const Env& e) { return e.power_w_start(); }, 0.10, true},
      {"power_w_end", kConditions, [](const Env& e) { return e.power_w_end(); }, 0.10, true},
  };
  return fields;
}

void AddTextDifference(const std::string& field, v1::DifferenceArea area,
                       const std::set<std::string>& baseline, const std::string& now,
                       std::vector<v1::EnvironmentDifference>& out) {
  if (baseline.count(now) > 0) return;
  v1::EnvironmentDifference d;
  d.set_field(field);
  for (const std::string& v : baseline) d.add_baseline(v);
  d.set_new_value(now);
  d.set_area(area);
  out.push_back(std::move(d));
}

// A label names the software (the job's git_sha, build ids, a test code-generation option)
// except the worker's test-only contention labels (test_contention_*: docs/operations.md), which
// say the GPU was loaded by a generator beside the suite: a condition of the run, not its code.
v1::DifferenceArea LabelArea(const std::string& key) {
  return key.rfind("test_contention_", 0) == 0 ? v1::DIFFERENCE_AREA_CONDITIONS
                                                : v1::DIFFERENCE_AREA_SOFTWARE;
}

// What joins one pair of the node's GPUs, as compared: nvidia-smi topo -m's word ("NV18": 18
// NVLinks; "PIX", "SYS": a PCIe path) and the NVLinks counted. The nominal rate is left out: it
// follows from these, and runs recorded before the NVLink generation was read from NVML's enum
// carry a wrong one.
std::string LinkText(const v1::GpuLink& link) {
  std::string text = link.path().empty() ? "unknown" : link.path();
  if (link.nvlinks() > 0) text += ", " + std::to_string(link.nvlinks()) + " NVLinks";
  if (link.through_nvswitch()) text += " via NVSwitch";
  return text;
}

std::map<std::string, std::string> Links(const Env& e) {
  std::map<std::string, std::string> links;
  for (const v1::GpuLink& link : e.gpu_links()) {
    links["gpu_links." + std::to_string(link.src()) + "-" + std::to_string(link.dst())] =
        LinkText(link);
  }
  return links;
}

}  // namespace

std::vector<v1::EnvironmentDifference> DiffEnvironments(const std::vector<Env>& baseline,
                                                        const Env& now) {
  std::vector<v1::EnvironmentDifference> out;
  if (baseline.empty()) return out;
  for (const TextField& f : TextFields()) {
    std::set<std::string> values;
    for (const Env& e : baseline) values.insert(f.read(e));
    AddTextDifference(f.name, f.area, values, f.read(now), out);
  }
  // Labels: the job's, e.g. git_sha and build ids. A label absent on one side reads as "".
  std::set<std::string> keys;
  for (const Env& e : baseline) {
    for (const auto& [k, v] : e.labels()) keys.insert(k);
  }
  for (const auto& [k, v] : now.labels()) keys.insert(k);
  for (const std::string& key : keys) {
    std::set<std::string> values;
    for (const Env& e : baseline) {
      auto it = e.labels().find(key);
      values.insert(it == e.labels().end() ? "" : it->second);
    }
    auto it = now.labels().find(key);
    AddTextDifference("labels." + key, LabelArea(key), values,
                      it == now.labels().end() ? "" : it->second, out);
  }
  // The links between the node's GPUs, per pair (a lost NVLink, a pair fallen back to PCIe). A
  // run that records none (one GPU, or a worker that does not read them) compares nothing.
  std::vector<std::map<std::string, std::string>> baseline_links;
  for (const Env& e : baseline) {
    if (e.gpu_links_size() > 0) baseline_links.push_back(Links(e));
  }
  if (now.gpu_links_size() > 0 && !baseline_links.empty()) {
    const std::map<std::string, std::string> now_links = Links(now);
    std::set<std::string> pairs;
    for (const auto& links : baseline_links) {
      for (const auto& [pair, text] : links) pairs.insert(pair);
    }
    for (const auto& [pair, text] : now_links) pairs.insert(pair);
    for (const std::string& pair : pairs) {
      std::set<std::string> values;
      for (const auto& links : baseline_links) {
        auto it = links.find(pair);
        values.insert(it == links.end() ? "" : it->second);
      }
      auto it = now_links.find(pair);
      AddTextDifference(pair, v1::DIFFERENCE_AREA_DEVICE, values,
                        it == now_links.end() ? "" : it->second, out);
    }
  }
  for (const NumericField& f : NumericFields()) {
    const double value = f.read(now);
    double lo = INFINITY, hi = -INFINITY;
    for (const Env& e : baseline) {
      const double v = f.read(e);
      if (v == 0) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    if (value == 0 || !std::isfinite(lo)) continue;
    const double below = f.relative ? lo * (1 - f.tolerance) : lo - f.tolerance;
    const double above = f.relative ? hi * (1 + f.tolerance) : hi + f.tolerance;
    if (value >= below && value <= above) continue;
    v1::EnvironmentDifference d;
    d.set_field(f.name);
    d.add_baseline(lo == hi ? NumberText(lo) : NumberText(lo) + ".." + NumberText(hi));
    d.set_new_value(NumberText(value));
    d.set_area(f.area);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace warpwatch::server::incidents
