// File: tests/e2e/node_job_e2e_test.cc
// Node jobs (JobSpec.node_scoped) end to end (issue 29 item 1): the real server and one replay
// worker of four GPUs (warpwatch-worker-replay --replay-gpus 4), the GPU jobs replaying
// tests/fixtures/h100_nightly.json and the node job the NCCL run recorded on four H200s
// (docs/results/multigpu_interconnect/nccl.json, its `command` field says how). The queue's rule is
// tested on the store in tests/server/store/node_queue_store_test.cc; here the real daemon, whose
// four GPUs poll on their own, must hold to it: the node job is never half leased (no GPU job of
// the worker runs while it does), it is not starved by the GPU jobs queued after it, and it does
// not starve those queued before it.
#include <google/protobuf/util/time_util.h>
#include <gtest/gtest.h>

#include <pqxx/pqxx>
#include <set>
#include <string>
#include <vector>

#include "tests/e2e/e2e_cluster.h"

namespace warpwatch::e2e {
namespace {

using google::protobuf::util::TimeUtil;
using std::chrono::seconds;

bool Ended(const v1::Job& job) {
  return job.state() == v1::JOB_STATE_SUCCEEDED || job.state() == v1::JOB_STATE_FAILED ||
         job.state() == v1::JOB_STATE_CANCELLED;
}

int64_t Micros(const google::protobuf::Timestamp& t) {
  return TimeUtil::TimestampToMicroseconds(t);
}

class NodeJobE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto cluster = E2eCluster::Create({});
    ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
    cluster_ = std::move(cluster).value();
    ASSERT_TRUE(cluster_->StartServer().ok()) << cluster_->Logs();
  }

  // A GPU job of one family of the H100 recording (16 points, about 1.6 s at 0.1 s a point).
  v1::JobSpec GpuSpec() const {
    v1::JobSpec spec = cluster_->RecordedSpec();
    spec.clear_families();
    spec.add_families("memory.coalescing");
    return spec;
  }

  // The node job: the three collectives at every size (30 points, about 3 s).
  static v1::JobSpec NodeSpec() {
    v1::JobSpec spec;
    spec.add_families("interconnect.nccl");
    spec.set_node_scoped(true);
    (*spec.mutable_labels())["suite"] = "e2e-node";
    return spec;
  }

  v1::Job Submit(const v1::JobSpec& spec) {
    auto job = cluster_->Submit(spec);
    EXPECT_TRUE(job.ok()) << job.status().ToString();
    return job.ok() ? *job : v1::Job{};
  }

  std::unique_ptr<E2eCluster> cluster_;
};

TEST_F(NodeJobE2eTest, OnAFourGpuWorkerANodeJobIsNeverHalfLeasedAndNeitherStarvesNorIsStarved) {
  // Everything is queued before the worker starts: three GPU jobs, the node job, three more.
  std::vector<v1::Job> before, after;
  for (int i = 0; i < 3; ++i) before.push_back(Submit(GpuSpec()));
  const v1::Job node = Submit(NodeSpec());
  for (int i = 0; i < 3; ++i) after.push_back(Submit(GpuSpec()));
  ASSERT_FALSE(HasFailure());

  WorkerOptions o;
  o.uuid = "GPU-node";
  o.max_point_seconds = 0.1;
  o.args = {"--replay-gpus=4", std::string("--replay-node-fixture=") + WARPWATCH_SOURCE_DIR +
                                   "/docs/results/multigpu_interconnect/nccl.json"};
  auto worker = cluster_->StartWorker(o);
  ASSERT_TRUE(worker.ok()) << worker.status().ToString();

  auto wait = [&](const v1::Job& job) {
    auto done = cluster_->WaitForJob(job.id(), Ended, seconds(90));
    EXPECT_TRUE(done.ok()) << done.status().ToString() << cluster_->Logs();
    if (!done.ok()) return v1::Job{};
    EXPECT_EQ(done->state(), v1::JOB_STATE_SUCCEEDED) << done->error() << cluster_->Logs();
    return *done;
  };
  const v1::Job n = wait(node);
  std::vector<v1::Job> gpu_jobs;
  for (const v1::Job& j : before) gpu_jobs.push_back(wait(j));
  for (const v1::Job& j : after) gpu_jobs.push_back(wait(j));
  ASSERT_FALSE(HasFailure());

  // The node job ran as the node's first GPU (its run and series are GPU 0's).
  EXPECT_EQ(n.device_uuid(), "GPU-node");
  EXPECT_EQ(n.attempts(), 1);
  const int64_t node_start = Micros(n.started_at());
  const int64_t node_end = Micros(n.finished_at());
  ASSERT_LT(node_start, node_end);
  std::set<std::string> gpus_used;
  for (size_t i = 0; i < gpu_jobs.size(); ++i) {
    const v1::Job& j = gpu_jobs[i];
    gpus_used.insert(j.device_uuid());
    const int64_t start = Micros(j.started_at());
    const int64_t end = Micros(j.finished_at());
    // Never half a node: no GPU job of the worker overlaps the node job.
    EXPECT_TRUE(end <= node_start || start >= node_end)
        << "GPU job " << j.id() << " on " << j.device_uuid() << " ran " << start << ".." << end
        << " us while the node job ran " << node_start << ".." << node_end;
    if (i < before.size()) {
      EXPECT_LE(end, node_start) << "a GPU job queued before the node job runs before it";
    } else {
      EXPECT_GE(start, node_end) << "a GPU job queued after the node job waits for it";
    }
  }
  // The GPU jobs ran on the worker's GPUs (side by side: which ones is the pollers' race).
  for (const std::string& uuid : gpus_used) {
    EXPECT_TRUE(uuid == "GPU-node" || uuid == "GPU-node-1" || uuid == "GPU-node-2" ||
                uuid == "GPU-node-3")
        << uuid;
  }

  // The node run holds every collective, and its environment the node's links on the worker's
  // GPUs (6 pairs of 4), not the recording host's uuids.
  auto runs = cluster_->Runs(n.id());
  ASSERT_TRUE(runs.ok()) << runs.status().ToString();
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ(runs->front().cases.size(), 30u);
  EXPECT_TRUE(runs->front().skipped.empty());
  pqxx::connection conn(cluster_->database_url());
  pqxx::nontransaction tx(conn);
  const pqxx::row links = tx.exec_params1(
      "SELECT jsonb_array_length(environment->'gpu_links'),"
      "  (SELECT string_agg(DISTINCT u, ',' ORDER BY u) FROM jsonb_array_elements("
      "    environment->'gpu_links') e, LATERAL (VALUES (e->>'src_uuid'), (e->>'dst_uuid')) v(u))"
      " FROM run WHERE id = $1",
      runs->front().id);
  EXPECT_EQ(links[0].as<int>(), 6);
  EXPECT_EQ(links[1].as<std::string>(), "GPU-node,GPU-node-1,GPU-node-2,GPU-node-3");
}

}  // namespace
}  // namespace warpwatch::e2e
