// File: tests/e2e/incident_e2e_test.cc
// Incidents end to end (issue 26): a real warpwatch-server and PostgreSQL, eight replay workers
// (one GPU each) running a schedule's nights (tests/e2e/replay_fleet_test.h). Five nights as
// recorded form every GPU's baseline; then the workers are restarted with a change
// (tests/e2e/replay/replay_change.h) and the schedule fires once more. The server's own loop
// analyses each run, queues and lets the workers run the confirmation (and counter) jobs, and
// sweeps the findings into incidents; the test reads them through IncidentService and the alert
// series through /metrics, as an operator would.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/e2e/replay_fleet_test.h"
#include "tests/server/metrics/metrics_scrape.h"
#include "warpwatch/v1/incident.grpc.pb.h"

namespace warpwatch::e2e {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// 16 + 11 + 3 OK points of the recording: the 30 cases of the scenario.
const std::vector<std::string> kFamilies = {"memory.coalescing", "reduce", "memory.alignment"};
constexpr int kCases = 30;

class IncidentE2eTest : public ReplayFleetTest {
 protected:
  IncidentE2eTest() : ReplayFleetTest(kFamilies, "GPU-e2e-incident-") {}

  void SetUp() override {
    ReplayFleetTest::SetUp();
    if (HasFatalFailure()) return;
    incidents_ = v1::IncidentService::NewStub(channel_);
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

  std::unique_ptr<v1::IncidentService::Stub> incidents_;
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
