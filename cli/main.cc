// File: cli/main.cc
// warpwatch: the command-line client of warpwatch-server.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/client/connection.h"
#include "cli/client/exit_codes.h"
#include "cli/commands/commands.h"

int main(int argc, char** argv) {
  using namespace warpwatch::cli;  // NOLINT: main only wires the verbs together
  CLI::App app("warpwatch: submit and follow GPU kernel-suite jobs on a warpwatch server, and query what they measured.",
               "warpwatch");
  app.require_subcommand(1);
  app.fallthrough();  // shared flags may come after the verb too
  app.footer(ExitCodesHelp());
  ClientOptions client;
  AddClientFlags(app, &client);
  int exit_code = kExitOk;
  RegisterSubmit(app, client, &exit_code);
  RegisterJobs(app, client, &exit_code);
  RegisterJob(app, client, &exit_code);
  RegisterCancel(app, client, &exit_code);
  RegisterWatch(app, client, &exit_code);
  RegisterWorkers(app, client, &exit_code);
  RegisterRuns(app, client, &exit_code);
  RegisterResults(app, client, &exit_code);
  RegisterSeries(app, client, &exit_code);
  RegisterCompare(app, client, &exit_code);
  RegisterRegressions(app, client, &exit_code);
  RegisterTriage(app, client, &exit_code);
  RegisterUpload(app, client, &exit_code);
  RegisterSchedules(app, client, &exit_code);
  RegisterNight(app, client, &exit_code);
  RegisterBaseline(app, client, &exit_code);
  RegisterIncidents(app, client, &exit_code);
  RegisterHealth(app, client, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    if (code == 0) return kExitOk;
    return WantsNagiosCodes(argc, argv) ? 3 : kExitUsage;  // 3: Nagios' UNKNOWN
  }
  return exit_code;
}
