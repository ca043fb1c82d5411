// File: server/incidents/incident_classifier.cc
#include "server/incidents/incident_classifier.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "common/catalog/catalog.h"
#include "server/incidents/incident_key.h"

namespace warpwatch::server::incidents {
namespace {

bool Pending(const v1::Regression& f) {
  return f.state() == v1::REGRESSION_STATE_SUSPECTED || f.state() == v1::REGRESSION_STATE_NOISE;
}

std::string After(const std::string& key, const std::string& prefix) {
  return key.substr(prefix.size());
}

std::string Count(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The families of `findings`, comma-separated, when every one is node-scoped (catalog
// FamilyInfo::node_scoped: a node run measured them, every GPU of the node at once, as its first
// GPU's run); "" otherwise.
std::string NodeFamilies(const std::vector<v1::Regression>& findings) {
  std::set<std::string> families;
  for (const v1::Regression& f : findings) {
    const catalog::FamilyInfo* family = catalog::FindFamily(f.case_().family());
    if (family == nullptr || !family->node_scoped) return "";
    families.insert(f.case_().family());
  }
  std::string list;
  for (const std::string& family : families) list += (list.empty() ? "" : ", ") + family;
  return list;
}

// "GPU1-GPU2" when every finding's case is of that one GPU pair (its `src` and `dst` axes, either
// direction), else "".
std::string OnePair(const std::vector<v1::Regression>& findings) {
  std::set<std::pair<int64_t, int64_t>> pairs;
  for (const v1::Regression& f : findings) {
    const auto& params = f.case_().params();
    auto src = params.find("src"), dst = params.find("dst");
    if (src == params.end() || dst == params.end()) return "";
    pairs.insert({std::min(src->second, dst->second), std::max(src->second, dst->second)});
  }
  if (pairs.size() != 1) return "";
  return "GPU" + std::to_string(pairs.begin()->first) + "-GPU" +
         std::to_string(pairs.begin()->second);
}

}  // namespace

int RepresentativeFinding(const std::vector<v1::Regression>& findings) {
  int best = -1;
  bool best_confirmed = false;
  for (size_t i = 0; i < findings.size(); ++i) {
    const bool confirmed = !Pending(findings[i]);
    if (best >= 0) {
      if (best_confirmed && !confirmed) continue;
      if (confirmed == best_confirmed &&
          std::fabs(findings[i].change()) <= std::fabs(findings[best].change())) {
        continue;
      }
    }
    best = static_cast<int>(i);
    best_confirmed = confirmed;
  }
  return best;
}

Classification Classify(const IncidentView& incident) {
  Classification c;
  std::set<std::string> devices, cases;
  for (const v1::Regression& f : incident.findings) {
    devices.insert(f.device_uuid());
    cases.insert(f.case_().canonical());
  }
  const int rep = RepresentativeFinding(incident.findings);
  const v1::Explanation none;
  const v1::Explanation& e = rep >= 0 ? incident.findings[rep].explanation() : none;
  for (const std::string& line : e.ruled_out()) c.ruled_out.push_back(line);
  const std::string spread = Count(cases.size(), "case", "cases") + " on " +
                             Count(devices.size(), "GPU", "GPUs") + " of " +
                             std::to_string(std::max(incident.peers, 1)) + " measured";
  const std::string& key = incident.cause_key;
  if (key.rfind("software:", 0) == 0) {
    const int moved = static_cast<int>(devices.size());
    if (incident.same_software > moved && moved * 2 < incident.same_software) {
      std::string which;
      for (const std::string& d : devices) which += (which.empty() ? "" : ", ") + d;
      const int still = incident.same_software - moved;
      c.cause_class = v1::CAUSE_CLASS_ONE_GPU;
      c.cause = (moved == 1 ? "GPU " : "GPUs ") + which + " moved; " +
                Count(static_cast<size_t>(still), "GPU", "GPUs") +
                " of the model with the same software did not (" +
                Count(cases.size(), "case", "cases") + ")";
      c.ruled_out.push_back("software: " + After(key, "software:") + " ran on " +
                            std::to_string(incident.same_software) + " GPUs of the window; " +
                            std::to_string(moved) + " moved");
      return c;
    }
    c.cause_class = v1::CAUSE_CLASS_SOFTWARE;
    c.cause = After(key, "software:") + " (" + spread + ")";
    return c;
  }
  if (key.rfind("environment:", 0) == 0) {
    c.cause_class = v1::CAUSE_CLASS_ENVIRONMENT;
    std::string evidence;
    for (const v1::LikelyCause& cause : e.causes()) {
      if (cause.cause_class() != v1::CAUSE_CLASS_ENVIRONMENT) continue;
      evidence = cause.cause() + (cause.evidence().empty() ? "" : ": " + cause.evidence(0));
      break;
    }
    if (evidence.empty()) evidence = "the GPU's clock moved, the work did not";
    c.cause = "GPU " + After(key, "environment:") + ": " + evidence + " (" + spread + ")";
    return c;
  }
  if (IsFleetKey(key)) {
    std::set<std::string> families;
    for (const v1::Regression& f : incident.findings) families.insert(f.case_().family());
    std::string list;
    for (const std::string& family : families) list += (list.empty() ? "" : ", ") + family;
    // A key written before the fleet incidents were split by subsystem names none.
    const std::string on =
        key == kFleetCauseKey ? "" : " on " + SubsystemCases(FleetSubsystem(key));
    c.cause_class = v1::CAUSE_CLASS_UNKNOWN;
    c.cause = std::to_string(devices.size()) + " of " +
              std::to_string(std::max(incident.peers, static_cast<int>(devices.size()))) +
              " GPUs of the model moved the same way" + on + " with nothing recorded differing (" +
              Count(cases.size(), "case", "cases") + "; " + list + ")";
    c.ruled_out.push_back("one GPU: " + std::to_string(devices.size()) +
                          " same-window GPUs moved together");
    return c;
  }
  const std::string gpu = After(key, "gpu:");
  const int others = incident.peers - 1;
  const bool alone = incident.movers <= 1 || incident.movers * 2 < incident.peers;
  // Node-scoped cases (collectives, GPU pairs) are the node's, filed under its first GPU: the
  // node moved, and its peers are the other nodes' first GPUs (GPU health names its GPUs).
  const std::string node_families = NodeFamilies(incident.findings);
  const bool node = !node_families.empty();
  const std::string pair = node ? OnePair(incident.findings) : "";
  const std::string subject =
      !node ? "GPU " + gpu
            : (pair.empty() ? "the node of GPU " : "the " + pair + " pair of the node of GPU ") +
                  gpu + " (its node runs' " + node_families + ")";
  if (others >= 1 && alone) {
    c.cause_class = v1::CAUSE_CLASS_ONE_GPU;
    c.cause =
        subject + " moved; " +
        Count(static_cast<size_t>(others - (incident.movers - 1)),
              node ? "other node" : "same-night peer", node ? "other nodes" : "same-night peers") +
        " of its model did not (" + Count(cases.size(), "case", "cases") + ")";
    return c;
  }
  c.cause_class = v1::CAUSE_CLASS_UNKNOWN;
  if (others < 1) {
    c.cause = subject + " moved with nothing recorded differing (" + spread + ")";
    c.ruled_out.push_back(
        node ? "one node: no other node of the model was measured in the same window to compare "
               "with"
             : "one GPU: no other GPU of the model was measured in the same window to compare "
               "with");
  } else {
    c.cause = std::to_string(incident.movers) + " of " + std::to_string(incident.peers) +
              " GPUs of the model moved the same way with nothing recorded differing (" + spread +
              " on this one)";
    c.ruled_out.push_back("one GPU: " + std::to_string(incident.movers) + " of " +
                          std::to_string(incident.peers) + " same-night GPUs moved together");
  }
  return c;
}

}  // namespace warpwatch::server::incidents
