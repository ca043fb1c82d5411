// File: server/gpu_health/gpu_verdict.cc
#include "server/gpu_health/gpu_verdict.h"

#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <optional>
#include <set>

#include "server/gpu_health/fingerprint.h"
#include "server/gpu_health/health_state_machine.h"
#include "server/gpu_health/subsystem_map.h"

namespace warpwatch::server::gpu_health {
namespace {

constexpr size_t kMaxCases = 20;

google::protobuf::Timestamp VerdictToProto(TimePoint at) {
  const int64_t micros =
      std::chrono::duration_cast<std::chrono::microseconds>(at.time_since_epoch()).count();
  return google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(micros);
}

v1::GpuHealthMark VerdictToProto(const Mark& mark, const std::string& device_uuid) {
  v1::GpuHealthMark out;
  out.set_device_uuid(device_uuid);
  out.set_action(mark.action);
  out.set_actor(mark.actor);
  out.set_note(mark.note);
  *out.mutable_at() = VerdictToProto(mark.at);
  return out;
}

v1::GpuSubsystemEvidence EvidenceOf(v1::GpuSubsystem subsystem, const Episode& e) {
  v1::GpuSubsystemEvidence out;
  out.set_subsystem(subsystem);
  out.set_name(std::string(SubsystemName(subsystem)));
  out.set_runs(e.runs);
  *out.mutable_since() = VerdictToProto(e.since);
  out.set_min_change(e.min_change);
  out.set_max_change(e.max_change);
  out.set_max_z(e.max_z);
  out.set_failing(e.failing);
  out.set_sm_clock_mhz(e.newest.sm_clock_mhz);
  out.set_peers_sm_clock_mhz(e.newest.night_sm_clock_mhz);
  out.set_ongoing(e.ongoing);
  std::vector<CaseOutlier> cases = e.newest.cases;
  std::sort(cases.begin(), cases.end(),
            [](const CaseOutlier& a, const CaseOutlier& b) { return a.change > b.change; });
  out.set_total_cases(static_cast<int32_t>(cases.size()));
  if (!cases.empty()) {
    const size_t n = cases.size();
    out.set_median_change(n % 2 == 1 ? cases[n / 2].change
                                     : (cases[n / 2 - 1].change + cases[n / 2].change) / 2);
  }
  for (size_t i = 0; i < cases.size() && i < kMaxCases; ++i) {
    v1::GpuCaseEvidence* c = out.add_cases();
    c->set_case_key(cases[i].case_key);
    c->set_family(cases[i].family);
    c->set_change(cases[i].change);
    c->set_z(cases[i].z);
    c->set_run_id(e.newest_run_id);
  }
  return out;
}

// Why `run` (not judged) was not.
std::string UnjudgedReason(const RunSummary& run, const HealthPolicy& policy) {
  if (JudgeRun(run, policy).unjudged == Unjudged::kTooFewPeers) {
    return "its newest night had " + std::to_string(run.night_devices) +
           " GPU(s) of its model, " + std::to_string(policy.min_night_devices) + " needed";
  }
  return "the fleet view compared none of its newest run's cases with its " +
         std::to_string(run.night_devices) +
         " same-night GPUs yet (it compares a case once its between-run noise is known, from two"
         " analysed runs of it on one GPU: a new fleet's third night; and only with " +
         std::to_string(policy.min_night_devices - 1) +
         " or more peers of the same software)";
}

}  // namespace

v1::GpuHealth DecideGpuHealth(const GpuHistory& history, const HealthPolicy& policy,
                              TimePoint now) {
  v1::GpuHealth out;
  out.set_device_uuid(history.device_uuid);
  out.set_gpu_model(history.gpu_model);
  out.set_hostname(history.hostname);
  out.set_gpu_index(history.gpu_index);

  std::optional<Mark> repaired, exclusion;
  for (const Mark& m : history.marks) {
    if (m.action == v1::GPU_HEALTH_ACTION_REPAIRED) repaired = m;
    if (m.action == v1::GPU_HEALTH_ACTION_EXCLUDED || m.action == v1::GPU_HEALTH_ACTION_INCLUDED) {
      exclusion = m;
    }
  }
  if (repaired) *out.mutable_repaired() = VerdictToProto(*repaired, history.device_uuid);

  // A GPU is HEALTHY from the repair, else from its first judged run in the window (not from the
  // window's start: a GPU first measured yesterday was not seen healthy two weeks ago).
  TimePoint start = repaired ? repaired->at : now - policy.window;
  if (!repaired) {
    for (const RunSummary& run : history.runs) {
      if (JudgeRun(run, policy).judged) {
        start = run.started_at;
        break;
      }
    }
  }
  HealthStateMachine machine(policy.runs_to_change, start);
  const RunSummary* last_judged = nullptr;
  const RunSummary* newest_run = nullptr;
  RunJudgement newest_judgement;
  int judged = 0;
  for (const RunSummary& run : history.runs) {
    if (repaired && run.started_at < repaired->at) continue;  // the repair dropped it
    newest_run = &run;
    RunJudgement j = JudgeRun(run, policy);
    if (!j.judged) continue;
    machine.Observe(j, run.run_id, run.started_at);
    last_judged = &run;
    newest_judgement = std::move(j);
    ++judged;
  }
  out.set_judged_runs(judged);

  // The evidence: what is sick now, and what made a worse state.
  std::set<v1::GpuSubsystem> sick_now;
  const bool unwell = machine.state() != v1::GPU_HEALTH_STATE_HEALTHY;
  for (const auto& [subsystem, episode] : machine.episodes()) {
    if (episode.ongoing) sick_now.insert(subsystem);
    const bool made_state = unwell && episode.runs >= policy.runs_to_change;
    if (episode.ongoing || made_state) {
      *out.add_evidence() = EvidenceOf(subsystem, episode);
    } else if (auto decisive = machine.decisive_episodes().find(subsystem);
               unwell && decisive != machine.decisive_episodes().end()) {
      // A shorter episode followed the one that made the state (sick, sick, clean, sick, clean).
      *out.add_evidence() = EvidenceOf(subsystem, decisive->second);
    }
  }
  std::stable_sort(out.mutable_evidence()->begin(), out.mutable_evidence()->end(),
                   [](const v1::GpuSubsystemEvidence& a, const v1::GpuSubsystemEvidence& b) {
                     if (a.ongoing() != b.ongoing()) return a.ongoing();
                     if (a.failing() != b.failing()) return a.failing();
                     return a.median_change() > b.median_change();
                   });
  if (last_judged != nullptr) {
    out.set_last_run_id(last_judged->run_id);
    *out.mutable_last_run_at() = VerdictToProto(last_judged->started_at);
    for (v1::GpuSubsystem s : newest_judgement.measured) {
      if (sick_now.count(s) == 0) out.add_normal(s);
    }
  }

  // Expiry: the newest judged run, or the repair, must be recent.
  std::optional<TimePoint> freshest;
  if (last_judged != nullptr) freshest = last_judged->started_at;
  if (repaired && (!freshest || repaired->at > *freshest)) freshest = repaired->at;
  v1::GpuHealthState computed = machine.state();
  std::string reason;
  if (!freshest) {
    computed = v1::GPU_HEALTH_STATE_UNKNOWN;
    reason = newest_run == nullptr ? "no analysed run in the window"
                                   : "no judged run: " + UnjudgedReason(*newest_run, policy);
  } else if (now - *freshest > policy.expiry) {
    computed = v1::GPU_HEALTH_STATE_UNKNOWN;
    reason = "expired: no judged run since " + FormatTime(*freshest) + " (expiry " +
             std::to_string(policy.expiry.count()) + " h)";
    *out.mutable_since() = VerdictToProto(*freshest + policy.expiry);
  } else {
    *out.mutable_since() = VerdictToProto(machine.since());
    reason = judged == 0 ? "repaired; no judged run since" : "";
  }
  out.set_computed_state(computed);
  out.set_state(computed);
  if (exclusion && exclusion->action == v1::GPU_HEALTH_ACTION_EXCLUDED) {
    *out.mutable_excluded() = VerdictToProto(*exclusion, history.device_uuid);
    out.set_state(v1::GPU_HEALTH_STATE_UNKNOWN);
    *out.mutable_since() = VerdictToProto(exclusion->at);
    reason = "excluded by " + exclusion->actor + " at " + FormatTime(exclusion->at) +
             (exclusion->note.empty() ? "" : ": " + exclusion->note);
  }
  out.set_reason(reason);
  out.set_fingerprint(Fingerprint(out, policy.runs_to_change));
  return out;
}

}  // namespace warpwatch::server::gpu_health
