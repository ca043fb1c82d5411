// File: cli/format/schedule_view.h
// Schedules and schedule runs as text for people: `warpwatch schedules`, `schedule runs`,
// `schedule trigger` and `night` (one row per GPU of a run).
#ifndef WARPWATCH_CLI_FORMAT_SCHEDULE_VIEW_H_
#define WARPWATCH_CLI_FORMAT_SCHEDULE_VIEW_H_

#include <ostream>
#include <string>
#include <vector>

#include "warpwatch/v1/schedule.pb.h"

namespace warpwatch::cli {

// "every GPU", "model *H100*, labels pool=nightly" ...
std::string SelectorSummary(const v1::DeviceSelector& selector);
// "done", "failed", "running", "queued", "cancelled" (the night's words for job states).
std::string NightStateLabel(v1::JobState state);

// NAME CRON ZONE GPUS FAMILIES MISSED OVERLAP ENABLED NEXT LAST; "no schedules" when empty.
// A schedule with a stored_error shows GPUS and FAMILIES as "unreadable" and gets a line after
// the table with the error and how to repair it.
void PrintScheduleTable(const std::vector<v1::Schedule>& schedules, std::ostream& out);
// One line per run: ID DUE TRIGGER STATE GPUS DONE FAILED REGRESSIONS OUTLIERS.
void PrintScheduleRunList(const std::vector<v1::ScheduleRun>& runs, std::ostream& out);
// A run's header line, then one row per GPU: HOST GPU MODEL JOB STATE POINTS REGRESSIONS OUTLIER.
void PrintScheduleRunDetail(const v1::ScheduleRun& run, std::ostream& out);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_SCHEDULE_VIEW_H_
