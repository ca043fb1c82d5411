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

StatusOr<v1::JobSpec> BuildTemplate(const ScheduleFlags& flags) {
  v1::JobSpec spec;
  for (const auto& family : flags.families) spec.add_families(family);
  for (const auto& variant : flags.variants) spec.add_variants(variant);
  for (const auto& text : flags.axes) {
    ASSIGN_OR_RETURN(*spec.add_axes(), ParseAxis(text));
  }
  for (const auto& text : flags.labels) {
    ASSIGN_OR_RETURN(auto pair, ParseKeyValue(text, "--label"));
    (*spec.mutable_labels())[pair.first] = pair.second;
  }
  spec.set_priority(flags.priority);
  spec.mutable_measurement()->set_min_samples(flags.min_samples);
  if (!flags.max_noise.empty()) {
    ASSIGN_OR_RETURN(double noise, ParseNoise(flags.max_noise));
    spec.mutable_measurement()->set_target_noise(noise);
  }
  spec.mutable_measurement()->set_collect_counters(flags.counters);
  return spec;
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
  CLI::Option* family = cmd->add_option("--family", flags->families,
                                        "job template: family name or glob (repeatable)");
  cmd->add_option("--variant", flags->variants, "job template: variant glob (repeatable)");
  cmd->add_option("--axis", flags->axes, "job template: [FAMILY:]NAME=V1,V2 (repeatable)");
  cmd->add_option("--label", flags->labels, "job template: K=V free label (repeatable)");
  cmd->add_option("--priority", flags->priority, "job template: priority in [-100, 100]");
  cmd->add_option("--min-samples", flags->min_samples, "job template: minimum samples per point");
  cmd->add_option("--max-noise", flags->max_noise,
                  "job template: target relative standard error, 0.005 or 0.5%");
  cmd->add_flag("--counters", flags->counters, "job template: collect CUPTI counters");
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
  ASSIGN_OR_RETURN(*s.mutable_job_template(), BuildTemplate(flags));
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
    ASSIGN_OR_RETURN(*s->mutable_job_template(), BuildTemplate(flags));
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
