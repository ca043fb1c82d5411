// File: cli/commands/detail/schedule_flags.h
// The flags of `schedule create` and `schedule update`, and the Schedule (and, for update, the
// field mask) they describe: a flag that was given is a path in the mask; an update that gives
// --family replaces the whole job template.
#ifndef WARPWATCH_CLI_COMMANDS_DETAIL_SCHEDULE_FLAGS_H_
#define WARPWATCH_CLI_COMMANDS_DETAIL_SCHEDULE_FLAGS_H_

#include <google/protobuf/field_mask.pb.h>

#include <string>
#include <vector>

#include "cli/commands/detail/job_spec_flags.h"
#include "common/status/status.h"
#include "warpwatch/v1/schedule.pb.h"

namespace CLI {
class App;
}  // namespace CLI

namespace warpwatch::cli::detail {

struct ScheduleFlags {
  std::string name;
  std::string cron;
  std::string time_zone;
  std::string missed;  // "skip" or "run-once"
  std::string overlap;  // "true"/"false" (update), or empty
  bool allow_overlap = false;  // create
  bool disabled = false;       // create
  bool enable = false;         // update
  bool disable = false;        // update
  // Device selector.
  std::string gpu_model;
  std::vector<std::string> worker_labels;
  JobSpecFlags job;  // the job template
};

// Adds the flags to `cmd` (create: --cron and --family required).
void AddScheduleFlags(CLI::App* cmd, ScheduleFlags* flags, bool create);

// The Schedule of `create`. INVALID_ARGUMENT naming the flag for a malformed value.
StatusOr<v1::Schedule> BuildSchedule(const ScheduleFlags& flags);

// The UpdateScheduleRequest of `update`: the paths of the flags `cmd` saw. INVALID_ARGUMENT when
// no flag changes anything, or --enable with --disable.
StatusOr<v1::UpdateScheduleRequest> BuildUpdate(const CLI::App& cmd, const ScheduleFlags& flags);

}  // namespace warpwatch::cli::detail

#endif  // WARPWATCH_CLI_COMMANDS_DETAIL_SCHEDULE_FLAGS_H_
