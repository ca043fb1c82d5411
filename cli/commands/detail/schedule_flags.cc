// File: cli/commands/detail/schedule_flags.cc
#include "cli/commands/detail/schedule_flags.h"

#include <CLI/CLI.hpp>

#include "cli/commands/detail/flag_parsing.h"

namespace warpwatch::cli::detail {
namespace {

StatusOr<v1::MissedFirePolicy> ParseMissed(const std::string& text) {
  if (text == "skip") return v1::MISSED_FIRE_POLICY_SKIP;
  if (text == "run-once") return v1::MISSED_FIRE_POLICY_RUN_ONCE;
  return InvalidArgumentError("--missed: \"" + text + "\" is not skip or run-once");
}

Status FillSelector(const ScheduleFlags& flags, v1::DeviceSelector* selector) {
  selector->set_gpu_model(flags.gpu_model);
  for (const auto& text : flags.worker_labels) {
    ASSIGN_OR_RETURN(auto pair, ParseKeyValue(text, "--worker-label"));
    (*selector->mutable_worker_labels())[pair.first] = pair.second;
  }
  return OkStatus();
}

}  // namespace

void AddScheduleFlags(CLI::App* cmd, ScheduleFlags* flags, bool create) {
  cmd->add_option("name", flags->name, "schedule name: a-z, 0-9, '.', '_', '-'")->required();
  CLI::Option* cron = cmd->add_option(
      "--cron", flags->cron, "five-field cron expression, e.g. '0 2 * * *' (02:00 every day)");
  cmd->add_option("--time-zone", flags->time_zone,
                  "IANA zone the cron expression is read in (default UTC), e.g. Europe/Berlin");
  cmd->add_option("--missed", flags->missed,
                  "fires missed while no server ran: skip (default) or run-once");
  cmd->add_option("--gpu-model", flags->gpu_model,
                  "fan out to GPUs of this model or glob, e.g. '*H100*' (default: every GPU)");
  cmd->add_option("--worker-label", flags->worker_labels,
                  "K=V: fan out to GPUs of workers carrying it (repeatable)");
  CLI::Option* family = AddJobSpecFlags(cmd, &flags->job, "job template: ");
  if (create) {
    cron->required();
    family->required();
    cmd->add_flag("--allow-overlap", flags->allow_overlap,
                  "fire even while the previous fire's jobs still run");
    cmd->add_flag("--disabled", flags->disabled, "create it disabled (no cron fires)");
  } else {
    cmd->add_option("--allow-overlap", flags->overlap, "true or false");
    cmd->add_flag("--enable", flags->enable, "enable cron fires (from now on)");
    cmd->add_flag("--disable", flags->disable, "stop cron fires");
  }
}

StatusOr<v1::Schedule> BuildSchedule(const ScheduleFlags& flags) {
  v1::Schedule s;
  s.set_name(flags.name);
  s.set_cron(flags.cron);
  s.set_time_zone(flags.time_zone);
  if (!flags.missed.empty()) {
    ASSIGN_OR_RETURN(v1::MissedFirePolicy policy, ParseMissed(flags.missed));
    s.set_missed_fire_policy(policy);
  }
  s.set_allow_overlap(flags.allow_overlap);
  s.set_enabled(!flags.disabled);
  RETURN_IF_ERROR(FillSelector(flags, s.mutable_selector()));
  ASSIGN_OR_RETURN(*s.mutable_job_template(), BuildJobSpec(flags.job));
  return s;
}

StatusOr<v1::UpdateScheduleRequest> BuildUpdate(const CLI::App& cmd, const ScheduleFlags& flags) {
  v1::UpdateScheduleRequest request;
  v1::Schedule* s = request.mutable_schedule();
  s->set_name(flags.name);
  auto given = [&cmd](const char* flag) { return cmd.count(flag) > 0; };
  auto path = [&request](const char* p) { request.mutable_update_mask()->add_paths(p); };
  if (given("--cron")) {
    s->set_cron(flags.cron);
    path("cron");
  }
  if (given("--time-zone")) {
    s->set_time_zone(flags.time_zone);
    path("time_zone");
  }
  if (given("--missed")) {
    ASSIGN_OR_RETURN(v1::MissedFirePolicy policy, ParseMissed(flags.missed));
    s->set_missed_fire_policy(policy);
    path("missed_fire_policy");
  }
  if (given("--allow-overlap")) {
    if (flags.overlap != "true" && flags.overlap != "false") {
      return InvalidArgumentError("--allow-overlap: \"" + flags.overlap +
                                  "\" is not true or false");
    }
    s->set_allow_overlap(flags.overlap == "true");
    path("allow_overlap");
  }
  if (flags.enable && flags.disable) {
    return InvalidArgumentError("--enable and --disable: give one");
  }
  if (flags.enable || flags.disable) {
    s->set_enabled(flags.enable);
    path("enabled");
  }
  if (given("--gpu-model") || given("--worker-label")) {
    RETURN_IF_ERROR(FillSelector(flags, s->mutable_selector()));
    path("selector");
  }
  const bool template_flag = given("--variant") || given("--axis") || given("--label") ||
                             given("--priority") || given("--min-samples") ||
                             given("--max-noise") || given("--counters");
  if (given("--family")) {
    ASSIGN_OR_RETURN(*s->mutable_job_template(), BuildJobSpec(flags.job));
    path("job_template");
  } else if (template_flag) {
    return InvalidArgumentError(
        "--family: required with any job template flag (the template is replaced whole)");
  }
  if (request.update_mask().paths().empty()) {
    return InvalidArgumentError("nothing to update: give at least one flag");
  }
  return request;
}

}  // namespace warpwatch::cli::detail
