// File: cli/commands/series.cc
// `warpwatch series CASE --model M | --device UUID`: one case over time, with a sparkline.
#include <google/protobuf/util/json_util.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "cli/client/exit_codes.h"
#include "cli/commands/commands.h"
#include "cli/format/json.h"
#include "cli/format/series_view.h"
#include "warpwatch/v1/result.grpc.pb.h"

namespace warpwatch::cli {
namespace {

struct SeriesFlags {
  std::string case_key;
  std::string model;
  std::string device;
  std::string measurement;  // MeasurementSettings as protobuf JSON; "" = the nightly series
  int limit = 0;
};

int RunSeries(const ClientOptions& client, const SeriesFlags& flags) {
  if (flags.model.empty() && flags.device.empty()) {
    return ReportError(InvalidArgumentError("series: give --model M or --device UUID"));
  }
  v1::GetSeriesRequest request;
  request.set_case_canonical(flags.case_key);
  request.set_gpu_model(flags.model);
  request.set_device_uuid(flags.device);
  request.set_limit(flags.limit);
  if (!flags.measurement.empty()) {
    google::protobuf::util::JsonParseOptions options;
    const auto parsed = google::protobuf::util::JsonStringToMessage(
        flags.measurement, request.mutable_measurement(), options);
    if (!parsed.ok()) {
      return ReportError(InvalidArgumentError("--measurement: not MeasurementSettings JSON (" +
                                              std::string(parsed.message()) + ")"));
    }
  }
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::ResultService::NewStub(*channel);
  auto context = MakeContext(client, kCallTimeout);
  v1::Series series;
  grpc::Status status = stub->GetSeries(context.get(), request, &series);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(series, /*pretty=*/true) << "\n";
  } else {
    PrintSeries(series, std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterSeries(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto flags = std::make_shared<SeriesFlags>();
  CLI::App* cmd = app.add_subcommand("series", "Show one case over time on a GPU model or device");
  cmd->add_option("CASE", flags->case_key, "case key: family/variant?axis=value&... (sorted axes)")
      ->required();
  cmd->add_option("--model", flags->model, "GPU model (exact name, e.g. \"NVIDIA H100 80GB HBM3\")");
  cmd->add_option("--device", flags->device, "one GPU (uuid)");
  cmd->add_option("--measurement", flags->measurement,
                  "the series of runs measured with these settings, as MeasurementSettings JSON "
                  "(e.g. '{\"l2_flush\": false}'); default: the nightly settings");
  cmd->add_option("--limit", flags->limit, "the latest N runs (server default 400)")
      ->check(CLI::Range(0, 5000));
  cmd->callback([&client, exit_code, flags] { *exit_code = RunSeries(client, *flags); });
}

}  // namespace warpwatch::cli
