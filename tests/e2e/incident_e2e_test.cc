// File: tests/e2e/incident_e2e_test.cc
// Incidents end to end (issue 26): a real warpwatch-server and PostgreSQL, eight replay workers
// (one GPU each) running a schedule's nights. Five nights as recorded form every GPU's baseline;
// then the workers are restarted with a change (tests/e2e/replay/replay_change.h) and the schedule
// fires once more. The server's own loop analyses each run, queues and lets the workers run the
// confirmation (and counter) jobs, and sweeps the findings into incidents; the test reads them
// through IncidentService and the alert series through /metrics, as an operator would.
#include <grpcpp/create_channel.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <map>
#include <cstdio>
#include <memory>
#include <pqxx/pqxx>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/e2e/e2e_cluster.h"
#include "tests/server/metrics/metrics_scrape.h"
#include "warpwatch/v1/incident.grpc.pb.h"
#include "warpwatch/v1/schedule.grpc.pb.h"

namespace warpwatch::e2e {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr int kGpus = 8;
constexpr int kBaselineNights = 5;  // DetectionConfig::min_baseline_runs
constexpr const char* kSchedule = "nightly-e2e";
// 16 + 11 + 3 OK points of the recording: the 30 cases of the scenario.
const std::vector<std::string> kFamilies = {"memory.coalescing", "reduce", "memory.alignment"};
constexpr int kCases = 30;

std::string Uuid(int gpu) { return "GPU-e2e-incident-" + std::to_string(gpu); }

class IncidentE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ClusterOptions options;
    options.server_args = {"--metrics-interval-seconds=1"};
    auto cluster = E2eCluster::Create(options);
    ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
    cluster_ = std::move(cluster).value();
    auto channel = grpc::CreateChannel(cluster_->address(), grpc::InsecureChannelCredentials());
    schedules_ = v1::ScheduleService::NewStub(channel);
    incidents_ = v1::IncidentService::NewStub(channel);
    for (int g = 0; g < kGpus; ++g) workers_.push_back(StartWorker(g, {}));
    WaitForDevices();
    CreateSchedule();
  }

  std::unique_ptr<ChildProcess> StartWorker(int gpu, const std::vector<std::string>& change) {
    WorkerOptions o;
    o.uuid = Uuid(gpu);
    o.max_point_seconds = 0.005;
    o.args = change;
    auto worker = cluster_->StartWorker(o);
    EXPECT_TRUE(worker.ok()) << worker.status().ToString();
    return worker.ok() ? std::move(worker).value() : nullptr;
  }

  // Stops GPU `gpu`'s worker (SIGTERM, exit 0) and starts it again replaying `change`.
  void Restart(int gpu, const std::vector<std::string>& change) {
    ASSERT_TRUE(workers_[gpu]->Signal(SIGTERM).ok());
    StatusOr<int> code = workers_[gpu]->Wait(seconds(30));
    ASSERT_TRUE(code.ok()) << code.status().ToString();
    ASSERT_EQ(*code, 0) << workers_[gpu]->LogTail();
    workers_[gpu] = StartWorker(gpu, change);
  }

  int64_t Sql(const std::string& sql) {
    pqxx::connection conn(cluster_->database_url());
    pqxx::nontransaction tx(conn);
    pqxx::result r = tx.exec(sql);
    return r.empty() || r[0][0].is_null() ? 0 : r[0][0].as<int64_t>();
  }

  void WaitForDevices() {
    const auto end = std::chrono::steady_clock::now() + seconds(30);
    while (Sql("SELECT count(*) FROM device d JOIN worker w ON w.id = d.worker_id "
               "WHERE w.state = 'ONLINE'") < kGpus) {
      ASSERT_LT(std::chrono::steady_clock::now(), end) << cluster_->Logs();
      std::this_thread::sleep_for(milliseconds(50));
    }
  }

  void CreateSchedule() {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + seconds(10));
    v1::CreateScheduleRequest request;
    v1::Schedule* s = request.mutable_schedule();
    s->set_name(kSchedule);
    s->set_cron("0 3 1 1 *");  // fired by the test (TriggerSchedule), not by the clock
    v1::JobSpec spec = cluster_->RecordedSpec();
    spec.clear_families();
    for (const std::string& f : kFamilies) spec.add_families(f);
    spec.mutable_measurement()->set_collect_counters(false);  // nightly runs skip the counter pass
    *s->mutable_job_template() = spec;
    v1::Schedule created;
    grpc::Status status = schedules_->CreateSchedule(&context, request, &created);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  // Fires the schedule (one job per online GPU) and waits until the night is done: no job queued
  // or running, every run analysed, every finding swept into its incident, for a second on end
  // (confirmation and counter jobs are queued by the analysis and run by the workers meanwhile).
  void Night() {
    const int64_t runs_before = Sql("SELECT count(*) FROM run");
    {
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() + seconds(10));
      v1::TriggerScheduleRequest request;
      request.set_name(kSchedule);
      v1::ScheduleRun fired;
      grpc::Status status = schedules_->TriggerSchedule(&context, request, &fired);
      ASSERT_TRUE(status.ok()) << status.error_message();
    }
    const auto end = std::chrono::steady_clock::now() + seconds(120);
    auto quiet_since = std::chrono::steady_clock::time_point::max();
    while (true) {
      ASSERT_LT(std::chrono::steady_clock::now(), end) << cluster_->Logs();
      const bool quiet =
          Sql("SELECT count(*) FROM run") >= runs_before + kGpus &&
          Sql("SELECT count(*) FROM job WHERE state IN ('QUEUED', 'RUNNING')") == 0 &&
          Sql("SELECT count(*) FROM run WHERE analysis_state = 'PENDING'") == 0 &&
          Sql("SELECT count(*) FROM regression WHERE NOT swept") == 0;
      const auto now = std::chrono::steady_clock::now();
      if (!quiet) {
        quiet_since = std::chrono::steady_clock::time_point::max();
      } else if (quiet_since == std::chrono::steady_clock::time_point::max()) {
        quiet_since = now;
      } else if (now - quiet_since > seconds(1)) {
        break;
      }
      std::this_thread::sleep_for(milliseconds(100));
    }
    ASSERT_EQ(Sql("SELECT count(*) FROM run WHERE state <> 'SUCCEEDED'"), 0) << cluster_->Logs();
  }

  void Baseline() {
    for (int n = 0; n < kBaselineNights; ++n) {
      Night();
      if (HasFatalFailure()) return;
    }
    ASSERT_EQ(Sql("SELECT count(*) FROM regression"), 0)
        << "identical nights raised findings\n" << cluster_->Logs();
  }

  std::vector<v1::Incident> Incidents() {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + seconds(10));
    v1::ListIncidentsRequest request;
    request.set_page_size(500);
    v1::ListIncidentsResponse response;
    grpc::Status status = incidents_->ListIncidents(&context, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    for (const v1::Incident& i : response.incidents()) {
      std::printf("incident %lld: %s %s, %d cases, %d findings on %d GPUs: %s\n",
                  static_cast<long long>(i.id()), v1::IncidentKind_Name(i.kind()).c_str(),
                  v1::CauseClass_Name(i.cause_class()).c_str(), i.cases(), i.findings(),
                  i.device_uuids_size(), i.cause().c_str());
    }
    return {response.incidents().begin(), response.incidents().end()};
  }

  // The open-incident alert series the server exports (deploy/prometheus: one alert each), once
  // the gauges have been refreshed after the sweep.
  std::vector<std::string> AlertSeries(size_t expected) {
    std::vector<std::string> series;
    const auto end = std::chrono::steady_clock::now() + seconds(10);
    do {
      series.clear();
      std::istringstream lines(testing::FetchMetrics(cluster_->metrics_port()));
      for (std::string line; std::getline(lines, line);) {
        if (line.rfind("warpwatch_incident_open{", 0) == 0) series.push_back(line);
      }
      if (series.size() == expected) break;
      std::this_thread::sleep_for(milliseconds(200));
    } while (std::chrono::steady_clock::now() < end);
    return series;
  }

  // The scenario: five nights as recorded, then each GPU of `changes` restarted with its replay
  // flags and one more night. Sets *incident to the one incident it opened (a test failure when
  // there is not exactly one) and *alerts to the open-incident series /metrics shows for it.
  void ChangedNight(const std::map<int, std::vector<std::string>>& changes, v1::Incident* incident,
                    std::vector<std::string>* alerts) {
    Baseline();
    if (HasFatalFailure()) return;
    for (const auto& [gpu, flags] : changes) {
      Restart(gpu, flags);
      if (HasFatalFailure()) return;
    }
    WaitForDevices();
    Night();
    if (HasFatalFailure()) return;
    const std::vector<v1::Incident> incidents = Incidents();
    ASSERT_EQ(incidents.size(), 1u) << cluster_->Logs();
    *incident = incidents[0];
    *alerts = AlertSeries(1);
    ASSERT_EQ(alerts->size(), 1u) << "one alert for the change";
  }

  std::unique_ptr<E2eCluster> cluster_;
  std::unique_ptr<v1::ScheduleService::Stub> schedules_;
  std::unique_ptr<v1::IncidentService::Stub> incidents_;
  std::vector<std::unique_ptr<ChildProcess>> workers_;
};

TEST_F(IncidentE2eTest, ADriverUpgradeSlowingThirtyCasesOnEightGpusIsOneSoftwareIncident) {
  std::map<int, std::vector<std::string>> upgraded;
  for (int g = 0; g < kGpus; ++g) {
    upgraded[g] = {"--replay-driver-version=590.12", "--replay-slowdown=1.05"};
  }
  v1::Incident i;
  std::vector<std::string> alerts;
  ChangedNight(upgraded, &i, &alerts);
  if (HasFatalFailure()) return;
  EXPECT_EQ(i.kind(), v1::INCIDENT_KIND_SLOWDOWN);
  EXPECT_EQ(i.cause_class(), v1::CAUSE_CLASS_SOFTWARE) << i.cause();
  EXPECT_NE(i.cause().find("driver_version 580.159.04 -> 590.12"), std::string::npos) << i.cause();
  EXPECT_EQ(i.cases(), kCases);
  EXPECT_EQ(i.device_uuids_size(), kGpus);
  EXPECT_EQ(i.findings(), kGpus * kCases);
  EXPECT_EQ(i.state(), v1::INCIDENT_STATE_OPEN);
  EXPECT_NE(alerts[0].find("cause=\"software\""), std::string::npos) << alerts[0];
}

TEST_F(IncidentE2eTest, OneGpuSlowedAloneIsOneIncidentOfThatGpu) {
  v1::Incident i;
  std::vector<std::string> alerts;
  ChangedNight({{3, {"--replay-slowdown=1.05"}}}, &i, &alerts);
  if (HasFatalFailure()) return;
  EXPECT_EQ(i.cause_class(), v1::CAUSE_CLASS_ONE_GPU) << i.cause();
  EXPECT_NE(i.cause().find("GPU " + Uuid(3) + " moved; 7 same-night peers"), std::string::npos)
      << i.cause();
  ASSERT_EQ(i.device_uuids_size(), 1);
  EXPECT_EQ(i.device_uuids(0), Uuid(3));
  EXPECT_EQ(i.cases(), kCases);
  EXPECT_NE(alerts[0].find("cause=\"one_gpu\""), std::string::npos) << alerts[0];
}

TEST_F(IncidentE2eTest, AClockDropIsAnEnvironmentIncident) {
  v1::Incident i;
  std::vector<std::string> alerts;
  ChangedNight({{0, {"--replay-sm-clock-mhz=1600"}}}, &i, &alerts);
  if (HasFatalFailure()) return;
  EXPECT_EQ(i.cause_class(), v1::CAUSE_CLASS_ENVIRONMENT) << i.cause();
  EXPECT_NE(i.cause().find("-> 1600 MHz"), std::string::npos) << i.cause();
  ASSERT_EQ(i.device_uuids_size(), 1);
  EXPECT_EQ(i.device_uuids(0), Uuid(0));
  EXPECT_NE(alerts[0].find("cause=\"environment\""), std::string::npos) << alerts[0];
}

}  // namespace
}  // namespace warpwatch::e2e
