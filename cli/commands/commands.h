// File: cli/commands/commands.h
// The CLI's verbs. Each Register* adds one subcommand to `app`; when it runs, it stores its exit
// code (cli/client/exit_codes.h) in *exit_code. `client` is filled by parsing and must outlive it.
#ifndef WARPWATCH_CLI_COMMANDS_COMMANDS_H_
#define WARPWATCH_CLI_COMMANDS_COMMANDS_H_

#include <cstdint>

#include "cli/client/connection.h"

namespace CLI {
class App;
}  // namespace CLI

namespace warpwatch::cli {

void RegisterSubmit(CLI::App& app, const ClientOptions& client, int* exit_code);
void RegisterJobs(CLI::App& app, const ClientOptions& client, int* exit_code);
void RegisterJob(CLI::App& app, const ClientOptions& client, int* exit_code);
void RegisterCancel(CLI::App& app, const ClientOptions& client, int* exit_code);
void RegisterWatch(CLI::App& app, const ClientOptions& client, int* exit_code);
void RegisterWorkers(CLI::App& app, const ClientOptions& client, int* exit_code);
// History and triage (ResultService): runs, results RUN, series CASE, compare A B, regressions,
// ack/dismiss/fixed ID (RegisterTriage adds the three), upload FILE.
void RegisterRuns(CLI::App& app, const ClientOptions& client, int* exit_code);
void RegisterResults(CLI::App& app, const ClientOptions& client, int* exit_code);
void RegisterSeries(CLI::App& app, const ClientOptions& client, int* exit_code);
void RegisterCompare(CLI::App& app, const ClientOptions& client, int* exit_code);
void RegisterRegressions(CLI::App& app, const ClientOptions& client, int* exit_code);
void RegisterTriage(CLI::App& app, const ClientOptions& client, int* exit_code);
void RegisterUpload(CLI::App& app, const ClientOptions& client, int* exit_code);
// Schedules (ScheduleService): `schedules`, `schedule create|update|delete|trigger|runs` (both
// added by RegisterSchedules), and `night [SCHEDULE] [--date D]`.
void RegisterSchedules(CLI::App& app, const ClientOptions& client, int* exit_code);
void RegisterNight(CLI::App& app, const ClientOptions& client, int* exit_code);
// Incidents (IncidentService): `incidents`, `incident N [--set STATE]`, `explain FINDING`.
void RegisterIncidents(CLI::App& app, const ClientOptions& client, int* exit_code);
// GPU health: `health [--device U] [--node H] [--state S] [--check]` and `health-mark UUID
// repaired|excluded|included --note N`.
void RegisterHealth(CLI::App& app, const ClientOptions& client, int* exit_code);
// Whether the command line holds `--check` (health's flag alone), whose command-line errors exit
// 3 (Nagios' UNKNOWN) instead of kExitUsage, so a mistyped flag or verb never reads as a failing
// GPU.
bool WantsNagiosCodes(int argc, char** argv);
// Pinned baselines: baseline pin RUN... | unpin ID | list.
void RegisterBaseline(CLI::App& app, const ClientOptions& client, int* exit_code);

// Follows job `job_id` until it ends (shared by `watch` and `submit --watch`): a progress bar on a
// TTY, one line per change otherwise, JSON Lines with --json. Returns the exit code: 0 when the
// job SUCCEEDED, kExitJobNotSucceeded when it FAILED or was CANCELLED, the RPC error's code else.
int WatchJob(const ClientOptions& client, int64_t job_id);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_COMMANDS_COMMANDS_H_
