// File: cli/commands/upload.cc
// `warpwatch upload FILE`: stores a `warpwatch-worker run --out` file measured on a node that
// cannot reach the server. Uploading the same file again stores nothing and names the first run.
// The run forms the uploader's own history; `--fleet-history` (admins only) puts it in the
// fleet's history of its device (docs/operations.md "Who may change what").
#include <CLI/CLI.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "cli/client/exit_codes.h"
#include "cli/commands/commands.h"
#include "cli/format/json.h"
#include "warpwatch/v1/result.grpc.pb.h"

namespace warpwatch::cli {
namespace {

int RunUpload(const ClientOptions& client, const std::string& path, bool fleet_history) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return ReportError(NotFoundError(path + ": cannot read"));
  std::stringstream text;
  text << in.rdbuf();
  v1::UploadRunRequest request;
  request.set_run_result_json(text.str());
  request.set_fleet_history(fleet_history);
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::ResultService::NewStub(*channel);
  auto context = MakeContext(client, std::chrono::milliseconds(120000));
  v1::UploadRunResponse response;
  grpc::Status status = stub->UploadRun(context.get(), request, &response);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(response, /*pretty=*/true) << "\n";
  } else if (response.created()) {
    std::cout << "run " << response.run().id() << ": stored " << response.measurements_stored()
              << " measurements, in "
              << (response.run().fleet_history() ? std::string("the fleet's history")
                                                 : response.run().uploaded_by() + "'s own history")
              << "\n";
  } else {
    std::cout << "run " << response.run().id()
              << ": this file was uploaded before; nothing stored\n";
  }
  return kExitOk;
}

}  // namespace

void RegisterUpload(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto path = std::make_shared<std::string>();
  auto fleet_history = std::make_shared<bool>(false);
  CLI::App* cmd =
      app.add_subcommand("upload", "Store a `warpwatch-worker run --out` file as a run");
  cmd->add_option("FILE", *path, "the run's JSON file")->required();
  cmd->add_flag("--fleet-history", *fleet_history,
                "admins: the run joins the fleet's history of its device (default: the "
                "uploader's own history)");
  cmd->callback([&client, exit_code, path, fleet_history] {
    *exit_code = RunUpload(client, *path, *fleet_history);
  });
}

}  // namespace warpwatch::cli
