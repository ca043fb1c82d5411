// Tests of the fleet view (ListWorkers) and the per-job timeout (FailTimedOutJobs) in the
// PostgreSQL store.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <thread>
#include <pqxx/pqxx>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::seconds;

class FleetStoreTest : public StoreTest {
 protected:
  // Runs one statement on the test database directly (to age rows).
  void Exec(const std::string& sql) {
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    tx.exec(sql);
    tx.commit();
  }

  // The first page (of the default size) of ListWorkers.
  std::vector<v1::WorkerInfo> List(milliseconds window = seconds(30),
                                   std::vector<v1::WorkerState> states = {}) {
    WorkerFilter filter;
    filter.states = std::move(states);
    StatusOr<WorkerPage> r = store_->ListWorkers(window, filter);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->workers : std::vector<v1::WorkerInfo>();
  }
};

TEST_F(FleetStoreTest, ListWorkersShowsDevicesLabelsAndFamilies) {
  v1::Device d0 = MakeDevice("GPU-A", "NVIDIA H100");
  d0.set_index(0);
  v1::Device d1 = MakeDevice("GPU-B", "NVIDIA H100");
  d1.set_index(1);
  const std::string w = Register({d1, d0}, {{"rack", "r7"}});
  std::vector<v1::WorkerInfo> workers = List();
  ASSERT_EQ(workers.size(), 1u);
  const v1::WorkerInfo& info = workers[0];
  EXPECT_EQ(info.id(), w);
  EXPECT_EQ(info.hostname(), "node-1");
  EXPECT_EQ(info.version(), "test");
  EXPECT_EQ(info.labels().at("rack"), "r7");
  ASSERT_EQ(info.families_size(), 1);
  EXPECT_EQ(info.families(0), "memory.copy");
  ASSERT_EQ(info.devices_size(), 2);
  EXPECT_EQ(info.devices(0).uuid(), "GPU-A");  // by ordinal
  EXPECT_EQ(info.devices(1).uuid(), "GPU-B");
  EXPECT_EQ(info.devices(0).sm_count(), 132);
  EXPECT_EQ(info.state(), v1::WORKER_STATE_ONLINE);
  EXPECT_GT(info.last_seen().seconds(), 0);
  EXPECT_TRUE(info.running_jobs().empty());
}

TEST_F(FleetStoreTest, ListWorkersShowsTheJobRunningOnEachDevice) {
  const std::string w =
      Register({MakeDevice("GPU-A", "NVIDIA H100"), MakeDevice("GPU-B", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(w, "GPU-B", seconds(30)));
  ASSERT_TRUE(lease.has_value());
  ASSERT_OK_AND_ASSIGN(bool cancel,
                       store_->UpdateProgress(w, job.id(), lease->run_id, 3, 10, "memory.copy/x"));
  EXPECT_FALSE(cancel);
  std::vector<v1::WorkerInfo> workers = List();
  ASSERT_EQ(workers.size(), 1u);
  ASSERT_EQ(workers[0].running_jobs_size(), 1);
  const v1::RunningJob& running = workers[0].running_jobs(0);
  EXPECT_EQ(running.device_uuid(), "GPU-B");
  EXPECT_EQ(running.job_id(), job.id());
  EXPECT_EQ(running.points_done(), 3);
  EXPECT_EQ(running.points_total(), 10);
  EXPECT_EQ(running.current_case(), "memory.copy/x");
  EXPECT_GT(running.lease_expiry().seconds(), running.started_at().seconds());
}

TEST_F(FleetStoreTest, WorkersNotSeenWithinTheWindowAreOfflineAndFilterable) {
  const std::string fresh = Register({MakeDevice("GPU-A", "NVIDIA H100")});
  const std::string stale = Register({MakeDevice("GPU-B", "NVIDIA H100")});
  Exec("UPDATE worker SET last_seen = now() - interval '10 minutes' WHERE id = '" + stale + "'");
  std::map<std::string, v1::WorkerState> states;
  for (const v1::WorkerInfo& info : List(seconds(60))) states[info.id()] = info.state();
  EXPECT_EQ(states[fresh], v1::WORKER_STATE_ONLINE);
  EXPECT_EQ(states[stale], v1::WORKER_STATE_OFFLINE);

  std::vector<v1::WorkerInfo> offline = List(seconds(60), {v1::WORKER_STATE_OFFLINE});
  ASSERT_EQ(offline.size(), 1u);
  EXPECT_EQ(offline[0].id(), stale);
  // A heartbeat brings it back.
  ASSERT_OK(store_->RecordHeartbeat(stale, {}, seconds(60)).status());
  EXPECT_EQ(List(seconds(60), {v1::WORKER_STATE_OFFLINE}).size(), 0u);
}

// ListWorkers reads workers, devices and running jobs in three statements. A GPU and the job on it
// move from one worker to another in one transaction that commits while ListWorkers waits between
// its device read and its job read (the writer holds the job table): the page must still be one
// moment's picture, the job under the worker that also shows its GPU. Under READ COMMITTED each
// statement would take a new snapshot and show the job under the new owner, the GPU under the old.
TEST_F(FleetStoreTest, ListWorkersReadsOneSnapshotWhileAJobAndItsGpuMoveToAnotherWorker) {
  const std::string w1 = Register({MakeDevice("GPU-A", "NVIDIA H100")});
  const std::string w2 = Register({MakeDevice("GPU-B", "NVIDIA H100")});
  ASSERT_NE(w1, w2);
  const v1::Job job = Enqueue();
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(w1, "GPU-A", seconds(30)));
  ASSERT_TRUE(lease.has_value());

  std::future<std::vector<v1::WorkerInfo>> listed;  // declared first: outlives the writer's lock
  pqxx::connection writer_conn(url_);
  pqxx::work writer(writer_conn);
  writer.exec("LOCK TABLE job IN ACCESS EXCLUSIVE MODE");
  listed = std::async(std::launch::async, [this] { return List(); });

  // Wait (bounded) until ListWorkers is blocked on the job table, i.e. past its first two reads.
  pqxx::connection watcher(url_);
  bool waiting = false;
  for (auto deadline = std::chrono::steady_clock::now() + seconds(20);
       !waiting && std::chrono::steady_clock::now() < deadline;) {
    pqxx::nontransaction q(watcher);
    waiting = q.exec1(
                   "SELECT count(*) FROM pg_locks WHERE relation = 'job'::regclass"
                   " AND database = (SELECT oid FROM pg_database"
                   " WHERE datname = current_database()) AND NOT granted")[0]
                  .as<int>() > 0;
    if (!waiting) std::this_thread::sleep_for(milliseconds(10));
  }
  ASSERT_TRUE(waiting) << "ListWorkers never reached its read of the job table";

  writer.exec_params("UPDATE device SET worker_id = $1 WHERE uuid = 'GPU-A'", w2);
  writer.exec_params("UPDATE job SET lease_owner = $1 WHERE id = $2", w2, job.id());
  writer.commit();

  ASSERT_EQ(listed.wait_for(seconds(20)), std::future_status::ready);
  std::vector<v1::WorkerInfo> workers = listed.get();
  ASSERT_EQ(workers.size(), 2u);
  for (const v1::WorkerInfo& info : workers) {
    SCOPED_TRACE(info.id());
    const bool first = info.id() == w1;
    ASSERT_EQ(info.devices_size(), 1);
    EXPECT_EQ(info.devices(0).uuid(), first ? "GPU-A" : "GPU-B");
    ASSERT_EQ(info.running_jobs_size(), first ? 1 : 0);
    if (first) {
      EXPECT_EQ(info.running_jobs(0).device_uuid(), "GPU-A");
    }
  }
  // The move itself happened: the next listing shows it.
  for (const v1::WorkerInfo& info : List()) {
    if (info.id() == w2) {
      EXPECT_EQ(info.running_jobs_size(), 1);
    }
  }
}

TEST_F(FleetStoreTest, ListWorkersOfAnEmptyFleetIsEmpty) { EXPECT_TRUE(List().empty()); }

TEST_F(FleetStoreTest, JobsPastTheirOwnTimeoutFailWithTheReason) {
  const std::string w = Register({MakeDevice("GPU-A", "NVIDIA H100")});
  const v1::Job job = Enqueue([](v1::JobSpec& s) { s.set_timeout_seconds(90); });
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(w, "GPU-A", seconds(600)));
  ASSERT_TRUE(lease.has_value());
  // Not yet: 90 s have not passed (the default would be far longer anyway).
  ASSERT_OK_AND_ASSIGN(int failed, store_->FailTimedOutJobs(hours(6)));
  EXPECT_EQ(failed, 0);
  Exec("UPDATE run SET started_at = now() - interval '91 seconds' WHERE id = " +
       std::to_string(lease->run_id));
  ASSERT_OK_AND_ASSIGN(failed, store_->FailTimedOutJobs(hours(6)));
  EXPECT_EQ(failed, 1);
  ASSERT_OK_AND_ASSIGN(v1::Job after, store_->GetJob(job.id()));
  EXPECT_EQ(after.state(), v1::JOB_STATE_FAILED);
  EXPECT_EQ(after.error(), "timed out after 90 s");
  EXPECT_TRUE(after.lease_owner().empty());
  EXPECT_TRUE(after.has_finished_at());
  // The worker learns it as a lost job and can no longer finish it.
  ASSERT_OK_AND_ASSIGN(LeaseRenewal renewal, store_->RecordHeartbeat(w, {lease->run_id}, seconds(30)));
  EXPECT_EQ(renewal.lost_run_ids, std::vector<int64_t>{lease->run_id});
  EXPECT_EQ(
      store_->FinishJob(w, job.id(), lease->run_id, v1::JOB_OUTCOME_SUCCEEDED, "").status().code(),
      StatusCode::kFailedPrecondition);
  // The run is closed with the same reason.
  pqxx::connection conn(url_);
  pqxx::work tx(conn);
  pqxx::row run = tx.exec_params1(
      "SELECT state, error, finished_at IS NOT NULL FROM run"
      " WHERE id = $1",
      lease->run_id);
  EXPECT_EQ(run[0].as<std::string>(), "FAILED");
  EXPECT_EQ(run[1].as<std::string>(), "timed out after 90 s");
  EXPECT_TRUE(run[2].as<bool>());
}

TEST_F(FleetStoreTest, JobsWithoutATimeoutTakeTheDefault) {
  const std::string w = Register({MakeDevice("GPU-A", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(w, "GPU-A", seconds(600)));
  ASSERT_TRUE(lease.has_value());
  Exec("UPDATE run SET started_at = now() - interval '3 seconds' WHERE id = " +
       std::to_string(lease->run_id));
  ASSERT_OK_AND_ASSIGN(int failed, store_->FailTimedOutJobs(seconds(10)));
  EXPECT_EQ(failed, 0);
  ASSERT_OK_AND_ASSIGN(failed, store_->FailTimedOutJobs(milliseconds(2500)));
  EXPECT_EQ(failed, 1);
  ASSERT_OK_AND_ASSIGN(v1::Job after, store_->GetJob(job.id()));
  EXPECT_EQ(after.state(), v1::JOB_STATE_FAILED);
  EXPECT_EQ(after.error(), "timed out after 2.5 s");
}

TEST_F(FleetStoreTest, QueuedAndFinishedJobsNeverTimeOut) {
  const std::string w = Register({MakeDevice("GPU-A", "NVIDIA H100")});
  const v1::Job done = Enqueue();
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(w, "GPU-A", seconds(600)));
  ASSERT_TRUE(lease.has_value());
  ASSERT_OK_AND_ASSIGN(v1::Job finished, store_->FinishJob(w, done.id(), lease->run_id,
                                                           v1::JOB_OUTCOME_SUCCEEDED, ""));
  const v1::Job queued = Enqueue();
  Exec("UPDATE run SET started_at = now() - interval '1 day'");
  Exec(
      "UPDATE job SET created_at = now() - interval '1 day', started_at = now() - interval '1 "
      "day'");
  ASSERT_OK_AND_ASSIGN(int failed, store_->FailTimedOutJobs(seconds(1)));
  EXPECT_EQ(failed, 0);
  ASSERT_OK_AND_ASSIGN(v1::Job q, store_->GetJob(queued.id()));
  EXPECT_EQ(q.state(), v1::JOB_STATE_QUEUED);
  ASSERT_OK_AND_ASSIGN(v1::Job s, store_->GetJob(done.id()));
  EXPECT_EQ(s.state(), v1::JOB_STATE_SUCCEEDED);
}

TEST_F(FleetStoreTest, ListWorkersPagesWithoutGapsOrRepeatsAndTokensKeepTheirFilter) {
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) {
    ids.push_back(Register({MakeDevice("GPU-" + std::to_string(i), "NVIDIA H100")}));
  }
  Exec("UPDATE worker SET last_seen = now() - interval '1 hour' WHERE id = '" + ids[4] + "'");
  WorkerFilter filter;
  filter.page_size = 2;
  std::vector<std::string> seen;
  int pages = 0;
  while (true) {
    ASSERT_OK_AND_ASSIGN(WorkerPage page, store_->ListWorkers(seconds(30), filter));
    ASSERT_LE(page.workers.size(), 2u);
    for (const v1::WorkerInfo& w : page.workers) {
      seen.push_back(w.id());
      EXPECT_EQ(w.devices_size(), 1);
    }
    ++pages;
    if (page.next_page_token.empty()) break;
    filter.page_token = page.next_page_token;
  }
  EXPECT_EQ(pages, 3);
  std::vector<std::string> sorted = ids;
  std::sort(sorted.begin(), sorted.end());  // one hostname: ordered by id
  EXPECT_EQ(seen, sorted);
  // A token is bound to its query's states; the filter is applied before paging.
  filter.page_token.clear();
  filter.states = {v1::WORKER_STATE_ONLINE};
  ASSERT_OK_AND_ASSIGN(WorkerPage online, store_->ListWorkers(seconds(30), filter));
  ASSERT_FALSE(online.next_page_token.empty());
  filter.page_token = online.next_page_token;
  filter.states = {v1::WORKER_STATE_OFFLINE};
  EXPECT_EQ(store_->ListWorkers(seconds(30), filter).status().code(), StatusCode::kInvalidArgument);
  filter.states = {v1::WORKER_STATE_ONLINE};
  filter.page_size = 100;
  ASSERT_OK_AND_ASSIGN(WorkerPage rest, store_->ListWorkers(seconds(30), filter));
  EXPECT_EQ(online.workers.size() + rest.workers.size(), 4u);
}

TEST_F(FleetStoreTest, WorkersGoneLongerThanTheRetentionAreDeletedUnlessTheyHoldAJob) {
  const std::string gone = Register({MakeDevice("GPU-A", "NVIDIA H100")});
  const std::string busy = Register({MakeDevice("GPU-B", "NVIDIA H100")});
  const std::string recent = Register({MakeDevice("GPU-C", "NVIDIA H100")});
  Enqueue();
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(busy, "GPU-B", seconds(600)));
  ASSERT_TRUE(lease.has_value());
  Exec("UPDATE worker SET last_seen = now() - interval '8 days' WHERE id IN ('" + gone + "', '" +
       busy + "')");
  Exec("UPDATE worker SET last_seen = now() - interval '6 days' WHERE id = '" + recent + "'");
  ASSERT_OK_AND_ASSIGN(int pruned, store_->PruneWorkers(std::chrono::hours(24 * 7)));
  EXPECT_EQ(pruned, 1);
  std::vector<std::string> left;
  for (const v1::WorkerInfo& w : List()) left.push_back(w.id());
  std::sort(left.begin(), left.end());
  std::vector<std::string> expected = {busy, recent};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(left, expected);
  ASSERT_OK_AND_ASSIGN(auto counts, store_->CountWorkersByState(seconds(30)));
  EXPECT_EQ(counts[v1::WORKER_STATE_ONLINE], 0);
  EXPECT_EQ(counts[v1::WORKER_STATE_OFFLINE], 2);
}

}  // namespace
}  // namespace warpwatch::server::testing
