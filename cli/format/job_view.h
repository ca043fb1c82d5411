// File: cli/format/job_view.h
// How jobs look to people: the `jobs` table, the `job` detail view, and short summaries.
#ifndef WARPWATCH_CLI_FORMAT_JOB_VIEW_H_
#define WARPWATCH_CLI_FORMAT_JOB_VIEW_H_

#include <ostream>
#include <string>
#include <vector>

#include "warpwatch/v1/job.pb.h"

namespace warpwatch::cli {

// "QUEUED", "RUNNING" ... (the enum name without its JOB_STATE_ prefix).
std::string JobStateLabel(v1::JobState state);

// "reduce, memory.*" (families), with " [variants: a, b]" when variants are given.
std::string SpecSummary(const v1::JobSpec& spec);

// ID STATE PRI PROGRESS FAMILIES BY CREATED AGE, one row per job. "no jobs" when empty.
void PrintJobTable(const std::vector<v1::Job>& jobs, std::ostream& out);

// "key: value" lines covering every field a person needs.
void PrintJobDetail(const v1::Job& job, std::ostream& out);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_JOB_VIEW_H_
