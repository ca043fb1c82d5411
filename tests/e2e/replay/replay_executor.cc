// File: tests/e2e/replay/replay_executor.cc
#include "tests/e2e/replay/replay_executor.h"

#include <google/protobuf/util/json_util.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

namespace warpwatch::e2e {

StatusOr<v1::RunResult> LoadRunResult(const std::string& path) {
  std::ifstream in(path);
  if (!in) return NotFoundError("cannot read replay fixture " + path);
  std::stringstream text;
  text << in.rdbuf();
  v1::RunResult result;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  auto status = google::protobuf::util::JsonStringToMessage(text.str(), &result, options);
  if (!status.ok()) {
    return InvalidArgumentError("replay fixture " + path + ": " + status.ToString());
  }
  return result;
}

std::vector<std::string> RecordedFamilies(const v1::RunResult& recording) {
  std::set<std::string> families;
  for (const v1::Measurement& m : recording.measurements()) {
    if (m.status() == v1::POINT_STATUS_OK || m.status() == v1::POINT_STATUS_FAILED) {
      families.insert(m.case_().family());
    }
  }
  return {families.begin(), families.end()};
}

std::vector<v1::GpuLink> ReplayedGpuLinks(const NodeRecording& node) {
  std::vector<v1::GpuLink> links;
  const int gpus = static_cast<int>(node.devices.size());
  for (v1::GpuLink link : node.recording.environment().gpu_links()) {
    if (link.src() < 0 || link.dst() < 0 || link.src() >= gpus || link.dst() >= gpus) continue;
    link.set_src_uuid(node.devices[link.src()].uuid());
    link.set_dst_uuid(node.devices[link.dst()].uuid());
    links.push_back(std::move(link));
  }
  return links;
}

ReplayExecutor::ReplayExecutor(const v1::RunResult& recording, v1::Device device,
                               ReplayOptions options, const NodeRecording* node)
    : environment_(recording.environment()), options_(options) {
  *environment_.mutable_device() = std::move(device);
  ApplyToEnvironment(options_.change, &environment_);
  char host[256] = {};
  if (::gethostname(host, sizeof(host) - 1) == 0) environment_.set_hostname(host);
  std::vector<const v1::RunResult*> recordings = {&recording};
  if (node != nullptr) {
    recordings.push_back(&node->recording);
    environment_.clear_gpu_links();
    for (v1::GpuLink& link : ReplayedGpuLinks(*node)) {
      *environment_.add_gpu_links() = std::move(link);
    }
    environment_.set_topology_note(node->recording.environment().topology_note());
  }
  for (const v1::RunResult* r : recordings) {
    for (const v1::Measurement& m : r->measurements()) {
      v1::Measurement& replayed = by_key_[m.case_().canonical()] = m;
      ApplyToMeasurement(options_.change, &replayed);
      families_.insert(m.case_().family());
    }
  }
}

StatusOr<worker::ExecutionResult> ReplayExecutor::Execute(
    const worker::ExecutionRequest& request, const worker::ExecutionCallbacks& callbacks) {
  worker::ExecutionResult result;
  result.environment = environment_;
  result.environment.mutable_labels()->clear();
  result.environment.mutable_labels()->insert(request.labels.begin(), request.labels.end());
  if (callbacks.on_environment) callbacks.on_environment(result.environment);
  for (size_t i = 0; i < request.points.size(); ++i) {
    const catalog::Point& point = request.points[i];
    if (callbacks.on_point_started) callbacks.on_point_started(i, point);
    v1::Measurement m;
    auto recorded = by_key_.find(point.Canonical());
    double sleep_seconds = 0;
    if (recorded != by_key_.end()) {
      m = recorded->second;
      // A counter pass asked of a point recorded without one: the real engine answers counters
      // or a note saying why there are none, never neither (the analysis would ask again
      // every night).
      if (request.settings.collect_counters() && m.status() == v1::POINT_STATUS_OK &&
          m.counters().empty() && m.counters_note().empty()) {
        m.set_counters_note(
            "counters not in the replay fixture (recorded without the counter pass)");
      }
      double sampled = 0;
      for (double s : m.samples_seconds()) sampled += s;
      sleep_seconds = std::min(sampled * options_.time_scale, options_.max_point_seconds);
    } else {
      m.mutable_case_()->set_family(point.family);
      m.mutable_case_()->set_variant(point.variant);
      m.mutable_case_()->mutable_params()->insert(point.params.begin(), point.params.end());
      m.mutable_case_()->set_canonical(point.Canonical());
      m.set_status(v1::POINT_STATUS_SKIPPED);
      m.set_error(families_.count(point.family)
                      ? "not in replay fixture"
                      : "family " + point.family +
                            " is not implemented by this worker (not in replay fixture)");
    }
    auto end = std::chrono::steady_clock::now() +
               std::chrono::microseconds(static_cast<int64_t>(sleep_seconds * 1e6));
    while (true) {  // the recorded time passes, cancellable like a real child
      if (callbacks.cancelled && callbacks.cancelled()) {
        return Status(StatusCode::kCancelled, "cancelled");
      }
      auto left = end - std::chrono::steady_clock::now();
      if (left <= std::chrono::steady_clock::duration::zero()) break;
      std::this_thread::sleep_for(
          std::min<std::chrono::steady_clock::duration>(left, std::chrono::milliseconds(10)));
    }
    if (callbacks.on_measurement) callbacks.on_measurement(i, m);
    result.measurements.push_back(std::move(m));
  }
  return result;
}

}  // namespace warpwatch::e2e
