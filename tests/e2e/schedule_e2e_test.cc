// File: tests/e2e/schedule_e2e_test.cc
// Schedules end to end with real processes (issue 11): two warpwatch-server replicas on one
// database never fire a due time twice, and a fire fans out to every replay worker's GPU.
//
// A cron fires at most once a minute, so the servers run with the test-only scaled scheduler clock
// (--schedule-test-clock-anchor/-speed, server/schedule/clock.h): both replicas get the same
// anchor and speed, so they agree on the (fast) time and race for every due time, exactly as they
// would every minute in production. The claim and the unique (schedule, due time) under test are
// the production code paths; only the clock is scaled.
#include <grpcpp/create_channel.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <thread>

#include "tests/e2e/e2e_cluster.h"
#include "warpwatch/v1/schedule.grpc.pb.h"

namespace warpwatch::e2e {
namespace {

using std::chrono::seconds;

std::string NowUnix() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(now).count());
}

// Lines of `path` that record a fire this replica won (a run row was inserted).
int WonFires(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (line.find("msg=\"schedule fire\"") != std::string::npos &&
        line.find("schedule_run_id=0 ") == std::string::npos) {
      ++n;
    }
  }
  return n;
}

class ScheduleE2eTest : public ::testing::Test {
 protected:
  void Start(double speed, double interval_seconds) {
    ClusterOptions options;
    options.server_args = {"--schedule-interval-seconds=" + std::to_string(interval_seconds),
                           "--min-schedule-interval-seconds=60",  // its cron fires every minute
                           "--schedule-test-clock-anchor=" + NowUnix(),
                           "--schedule-test-clock-speed=" + std::to_string(speed),
                           "--schedule-missed-grace-seconds=3600"};
    auto cluster = E2eCluster::Create(options);
    ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
    cluster_ = std::move(cluster).value();
  }

  std::unique_ptr<ChildProcess> Worker(const std::string& uuid) {
    WorkerOptions o;
    o.uuid = uuid;
    o.max_point_seconds = 0.02;
    auto worker = cluster_->StartWorker(o);
    EXPECT_TRUE(worker.ok()) << worker.status().ToString();
    return worker.ok() ? std::move(worker).value() : nullptr;
  }

  int64_t Sql(const std::string& sql) {
    pqxx::connection conn(cluster_->database_url());
    pqxx::nontransaction tx(conn);
    pqxx::result r = tx.exec(sql);
    return r.empty() || r[0][0].is_null() ? 0 : r[0][0].as<int64_t>();
  }

  void WaitForDevices(int64_t n) {
    const auto end = std::chrono::steady_clock::now() + seconds(30);
    while (Sql("SELECT count(*) FROM device WHERE worker_id IS NOT NULL") < n) {
      ASSERT_LT(std::chrono::steady_clock::now(), end) << cluster_->Logs();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  // CreateSchedule "every-minute" ("* * * * *") on the server at `address`.
  void CreateEveryMinute(const std::string& address, bool allow_overlap) {
    auto stub = v1::ScheduleService::NewStub(
        grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + seconds(10));
    v1::CreateScheduleRequest request;
    v1::Schedule* s = request.mutable_schedule();
    s->set_name("every-minute");
    s->set_cron("* * * * *");
    s->set_allow_overlap(allow_overlap);
    *s->mutable_job_template() = cluster_->RecordedSpec();
    v1::Schedule created;
    grpc::Status status = stub->CreateSchedule(&context, request, &created);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  std::unique_ptr<E2eCluster> cluster_;
};

TEST_F(ScheduleE2eTest, TwoServerReplicasOnOneDatabaseFireEveryDueTimeExactlyOnce) {
  constexpr int64_t kFires = 15;
  // A virtual minute every half second; each replica looks for due schedules every 50 ms.
  ASSERT_NO_FATAL_FAILURE(Start(/*speed=*/120, /*interval_seconds=*/0.05));
  std::string replica_address;
  auto replica = cluster_->StartReplica(&replica_address);
  ASSERT_TRUE(replica.ok()) << replica.status().ToString();
  auto worker = Worker("GPU-e2e-a");
  WaitForDevices(1);
  CreateEveryMinute(replica_address, /*allow_overlap=*/true);
  // Until 15 due times have fired and each replica has won at least one: 7.5 s on a quiet
  // machine; the deadline is generous for a loaded one (the race itself is the production path).
  const std::string replica_log = (*replica)->log_path();
  const auto end = std::chrono::steady_clock::now() + seconds(180);
  while (Sql("SELECT count(*) FROM schedule_run") < kFires ||
         WonFires(cluster_->temp_dir() + "/server.log") == 0 || WonFires(replica_log) == 0) {
    ASSERT_LT(std::chrono::steady_clock::now(), end)
        << Sql("SELECT count(*) FROM schedule_run") << " fires in 180 s\n"
        << cluster_->Logs();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE((*replica)->Signal(SIGTERM).ok());
  ASSERT_TRUE(cluster_->StopServer().ok()) << cluster_->Logs();
  auto replica_exit = (*replica)->Wait(seconds(20));
  ASSERT_TRUE(replica_exit.ok() && *replica_exit == 0) << cluster_->Logs();

  const int64_t runs = Sql("SELECT count(*) FROM schedule_run");
  EXPECT_GE(runs, kFires) << cluster_->Logs();
  EXPECT_EQ(Sql("SELECT count(DISTINCT due_at) FROM schedule_run"), runs);
  // Every virtual minute between the first and the last fire, once: no gap, no double.
  EXPECT_EQ(Sql("SELECT (extract(epoch FROM max(due_at) - min(due_at)) / 60)::bigint + 1"
                " FROM schedule_run"),
            runs);
  EXPECT_EQ(Sql("SELECT count(*) FROM schedule_run WHERE state = 'FIRED'"), runs);
  EXPECT_EQ(Sql("SELECT count(*) FROM job WHERE schedule_run_id IS NOT NULL"), runs);
  // Both replicas won fires; together exactly one per run.
  const int won_first = WonFires(cluster_->temp_dir() + "/server.log");
  const int won_replica = WonFires((*replica)->log_path());
  EXPECT_EQ(won_first + won_replica, runs);
  EXPECT_GT(won_first, 0) << "replica won all " << won_replica;
  EXPECT_GT(won_replica, 0) << "first server won all " << won_first;
  std::cout << "fires: " << runs << " (server " << won_first << ", replica " << won_replica
            << ")\n";
}

TEST_F(ScheduleE2eTest, AFireFansOutToEveryReplayWorkersGpuAndOverlapsAreSkipped) {
  // A virtual minute every second.
  ASSERT_NO_FATAL_FAILURE(Start(/*speed=*/60, /*interval_seconds=*/0.1));
  constexpr int kWorkers = 4;
  std::vector<std::unique_ptr<ChildProcess>> workers;
  for (int i = 0; i < kWorkers; ++i) workers.push_back(Worker("GPU-e2e-" + std::to_string(i)));
  WaitForDevices(kWorkers);
  CreateEveryMinute(cluster_->address(), /*allow_overlap=*/false);

  // The first fire's jobs all end.
  const std::string first_run =
      "(SELECT min(id) FROM schedule_run WHERE state = 'FIRED')";
  const auto end = std::chrono::steady_clock::now() + seconds(120);
  while (Sql("SELECT count(*) FROM job WHERE schedule_run_id = " + first_run +
             " AND state IN ('SUCCEEDED', 'FAILED', 'CANCELLED')") < kWorkers) {
    ASSERT_LT(std::chrono::steady_clock::now(), end) << cluster_->Logs();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(cluster_->StopServer().ok()) << cluster_->Logs();

  EXPECT_EQ(Sql("SELECT count(*) FROM job WHERE schedule_run_id = " + first_run), kWorkers);
  EXPECT_EQ(Sql("SELECT count(*) FROM job WHERE schedule_run_id = " + first_run +
                " AND state = 'SUCCEEDED' AND points_done = points_total AND points_total > 0"),
            kWorkers)
      << cluster_->Logs();
  // One job per GPU, each run on the GPU it was pinned to.
  EXPECT_EQ(Sql("SELECT count(DISTINCT selector_gpu_uuid) FROM job WHERE schedule_run_id = " +
                first_run),
            kWorkers);
  EXPECT_EQ(Sql("SELECT count(*) FROM job j JOIN run r ON r.id = j.current_run_id"
                " WHERE j.schedule_run_id = " + first_run +
                " AND r.device_uuid = j.selector_gpu_uuid"),
            kWorkers);
  // While they ran, the next due times were recorded as overlaps and created no job.
  EXPECT_GE(Sql("SELECT count(*) FROM schedule_run WHERE state = 'SKIPPED'"
                " AND skipped_reason = 'overlap'"),
            1)
      << cluster_->Logs();
  EXPECT_EQ(Sql("SELECT count(*) FROM job j JOIN schedule_run r ON r.id = j.schedule_run_id"
                " WHERE r.state = 'SKIPPED'"),
            0);
}

}  // namespace
}  // namespace warpwatch::e2e
