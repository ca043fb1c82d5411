// File: tests/e2e/replay_fleet_test.h
// The fixture of the end-to-end tests that run a fleet's nights: a real warpwatch-server and
// PostgreSQL, eight replay GPUs (eight workers of one GPU each, or fewer workers of several) and a
// schedule of some of the recording's families, fired by the test. Night() fires it and waits
// until the night is done as the server sees it: every run analysed, the confirmation (and
// counter) jobs the analysis queued run by the workers, every finding swept into its incident.
// With a node recording (NodeFleet) a second schedule of node jobs replays it, one job per worker
// (NodeNight()). Restart() gives a worker a change to replay (tests/e2e/replay/replay_change.h).
// Used by incident_e2e_test.cc and gpu_health_e2e_test.cc.
#ifndef WARPWATCH_TESTS_E2E_REPLAY_FLEET_TEST_H_
#define WARPWATCH_TESTS_E2E_REPLAY_FLEET_TEST_H_

#include <grpcpp/create_channel.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <memory>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tests/e2e/e2e_cluster.h"
#include "warpwatch/v1/schedule.grpc.pb.h"

namespace warpwatch::e2e {

class ReplayFleetTest : public ::testing::Test {
 protected:
  static constexpr int kGpus = 8;
  static constexpr int kBaselineNights = 5;  // DetectionConfig::min_baseline_runs
  static constexpr const char* kSchedule = "nightly-e2e";
  static constexpr const char* kNodeSchedule = "nightly-e2e-node";

  // Workers of several GPUs, and the node run they replay for the node schedule's jobs.
  struct NodeFleet {
    int workers = 0;            // of kGpus / workers GPUs each
    std::string fixture;        // a node run's RunResult (--replay-node-fixture)
    std::string node_family;  // the node schedule's one family
  };

  // The schedule runs `families` of the recording on GPUs named `uuid_prefix` + worker index (and
  // "-" + the GPU's ordinal after the first of a worker of several).
  ReplayFleetTest(std::vector<std::string> families, std::string uuid_prefix)
      : ReplayFleetTest(std::move(families), std::move(uuid_prefix), NodeFleet()) {}
  ReplayFleetTest(std::vector<std::string> families, std::string uuid_prefix, NodeFleet node)
      : families_(std::move(families)),
        uuid_prefix_(std::move(uuid_prefix)),
        node_(std::move(node)) {
    if (node_.workers > 0) workers_count_ = node_.workers;
  }

  void SetUp() override {
    ClusterOptions options;
    options.server_args = {"--metrics-interval-seconds=1"};
    auto cluster = E2eCluster::Create(options);
    ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
    cluster_ = std::move(cluster).value();
    channel_ = grpc::CreateChannel(cluster_->address(), grpc::InsecureChannelCredentials());
    schedules_ = v1::ScheduleService::NewStub(channel_);
    for (int w = 0; w < workers_count_; ++w) workers_.push_back(StartWorker(w, {}));
    WaitForDevices();
    CreateSchedule(kSchedule, families_, false);
    if (!node_.fixture.empty()) CreateSchedule(kNodeSchedule, {node_.node_family}, true);
  }

  int GpusPerWorker() const { return kGpus / workers_count_; }

  // GPU `gpu` of the fleet: ordinal gpu % GpusPerWorker() of worker gpu / GpusPerWorker().
  std::string Uuid(int gpu) const {
    const std::string worker = uuid_prefix_ + std::to_string(gpu / GpusPerWorker());
    const int ordinal = gpu % GpusPerWorker();
    return ordinal == 0 ? worker : worker + "-" + std::to_string(ordinal);
  }

  std::unique_ptr<ChildProcess> StartWorker(int worker, const std::vector<std::string>& change) {
    WorkerOptions o;
    o.uuid = Uuid(worker * GpusPerWorker());
    o.max_point_seconds = 0.005;
    o.args = change;
    if (GpusPerWorker() > 1) o.args.push_back("--replay-gpus=" + std::to_string(GpusPerWorker()));
    if (!node_.fixture.empty()) o.args.push_back("--replay-node-fixture=" + node_.fixture);
    auto started = cluster_->StartWorker(o);
    EXPECT_TRUE(started.ok()) << started.status().ToString();
    return started.ok() ? std::move(started).value() : nullptr;
  }

  // Stops worker `worker` (SIGTERM, exit 0) and starts it again replaying `change`. With one GPU
  // a worker, the worker is the GPU.
  void Restart(int worker, const std::vector<std::string>& change) {
    ASSERT_TRUE(workers_[worker]->Signal(SIGTERM).ok());
    StatusOr<int> code = workers_[worker]->Wait(std::chrono::seconds(30));
    ASSERT_TRUE(code.ok()) << code.status().ToString();
    ASSERT_EQ(*code, 0) << workers_[worker]->LogTail();
    workers_[worker] = StartWorker(worker, change);
  }

  int64_t Sql(const std::string& sql) {
    pqxx::connection conn(cluster_->database_url());
    pqxx::nontransaction tx(conn);
    pqxx::result r = tx.exec(sql);
    return r.empty() || r[0][0].is_null() ? 0 : r[0][0].as<int64_t>();
  }

  void WaitForDevices() {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (Sql("SELECT count(*) FROM device d JOIN worker w ON w.id = d.worker_id "
               "WHERE w.state = 'ONLINE'") < kGpus) {
      ASSERT_LT(std::chrono::steady_clock::now(), end) << cluster_->Logs();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  void CreateSchedule(const std::string& name, const std::vector<std::string>& families,
                      bool node_scoped) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::CreateScheduleRequest request;
    v1::Schedule* s = request.mutable_schedule();
    s->set_name(name);
    s->set_cron("0 3 1 1 *");  // fired by the test (TriggerSchedule), not by the clock
    v1::JobSpec spec = cluster_->RecordedSpec();
    spec.clear_families();
    for (const std::string& f : families) spec.add_families(f);
    spec.set_node_scoped(node_scoped);
    spec.mutable_measurement()->set_collect_counters(false);  // nightly runs skip the counter pass
    *s->mutable_job_template() = spec;
    v1::Schedule created;
    grpc::Status status = schedules_->CreateSchedule(&context, request, &created);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  // Fires the schedule (one job per online GPU) and waits until the night is done: no job queued
  // or running, every run analysed, every finding swept into its incident, for a second on end
  // (confirmation and counter jobs are queued by the analysis and run by the workers meanwhile).
  // A day after the night before: the server's model noise cache (series_noise model rows, kept
  // AnalysisConfig::model_noise_max_age, 12 h) is dropped, as a day would; nights here are
  // seconds apart.
  void Night() { Fire(kSchedule, kGpus); }

  // Fires the node schedule (one node job per worker), and waits as Night() does.
  void NodeNight() { Fire(kNodeSchedule, workers_count_); }

  void Fire(const std::string& schedule, int runs) {
    Sql("DELETE FROM series_noise WHERE device_uuid = ''");
    const int64_t runs_before = Sql("SELECT count(*) FROM run");
    {
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
      v1::TriggerScheduleRequest request;
      request.set_name(schedule);
      v1::ScheduleRun fired;
      grpc::Status status = schedules_->TriggerSchedule(&context, request, &fired);
      ASSERT_TRUE(status.ok()) << status.error_message();
    }
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    auto quiet_since = std::chrono::steady_clock::time_point::max();
    while (true) {
      ASSERT_LT(std::chrono::steady_clock::now(), end) << cluster_->Logs();
      const bool quiet =
          Sql("SELECT count(*) FROM run") >= runs_before + runs &&
          Sql("SELECT count(*) FROM job WHERE state IN ('QUEUED', 'RUNNING')") == 0 &&
          Sql("SELECT count(*) FROM run WHERE analysis_state = 'PENDING'") == 0 &&
          Sql("SELECT count(*) FROM regression WHERE NOT swept") == 0;
      const auto now = std::chrono::steady_clock::now();
      if (!quiet) {
        quiet_since = std::chrono::steady_clock::time_point::max();
      } else if (quiet_since == std::chrono::steady_clock::time_point::max()) {
        quiet_since = now;
      } else if (now - quiet_since > std::chrono::seconds(1)) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_EQ(Sql("SELECT count(*) FROM run WHERE state <> 'SUCCEEDED'"), 0) << cluster_->Logs();
  }

  // kBaselineNights nights as recorded: every GPU's baseline, and no finding of any kind.
  void Baseline() {
    for (int n = 0; n < kBaselineNights; ++n) {
      Night();
      if (HasFatalFailure()) return;
    }
    ASSERT_EQ(Sql("SELECT count(*) FROM regression"), 0) << "identical nights raised findings\n"
                                                         << cluster_->Logs();
  }

  const std::vector<std::string> families_;
  const std::string uuid_prefix_;
  const NodeFleet node_;
  int workers_count_ = kGpus;
  std::unique_ptr<E2eCluster> cluster_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::ScheduleService::Stub> schedules_;
  std::vector<std::unique_ptr<ChildProcess>> workers_;
};

}  // namespace warpwatch::e2e

#endif  // WARPWATCH_TESTS_E2E_REPLAY_FLEET_TEST_H_
