// Node jobs (JobSpec.node_scoped) in the PostgreSQL store's queue, on a 4-GPU worker: a node job
// leases every GPU of the worker or none (never half), GPU jobs queued before it run first, GPU
// jobs queued after it wait until it ran (neither kind starves the other), while it runs the
// worker's other GPUs claim nothing, and it always runs as the node's first GPU (its run, series
// and environment are that GPU's every night).
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

using std::chrono::seconds;

class NodeQueueStoreTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    std::vector<v1::Device> devices;
    for (const std::string& g : kGpus) devices.push_back(MakeDevice(g, "NVIDIA H100"));
    worker_ = Register(devices);
  }

  v1::Job EnqueueNode() {
    return Enqueue([](v1::JobSpec& s) {
      s.clear_families();
      s.add_families("interconnect.nccl");
      s.set_node_scoped(true);
    });
  }

  void Finish(const Lease& lease) {
    ASSERT_OK(store_->FinishJob(worker_, lease.job.id(), lease.run_id, v1::JOB_OUTCOME_SUCCEEDED, "")
                  .status());
  }

  const std::vector<std::string> kGpus = {"GPU-0", "GPU-1", "GPU-2", "GPU-3"};
  std::string worker_;
};

TEST_F(NodeQueueStoreTest, AnIdleWorkersFirstGpuLeasesTheNodeJobAndTheOtherGpusGetNothing) {
  const v1::Job node = EnqueueNode();
  const v1::Job gpu_job = Enqueue();
  // Another GPU of the idle worker polls first: it is not the node's GPU, and it drains.
  EXPECT_FALSE(Claim(worker_, "GPU-2").has_value());
  std::optional<Lease> lease = Claim(worker_, "GPU-0");
  ASSERT_TRUE(lease.has_value());
  EXPECT_EQ(lease->job.id(), node.id());
  EXPECT_TRUE(lease->job.spec().node_scoped());
  // The node job holds GPUs 0, 1 and 3 too: the GPU job waits although it matches them.
  for (const char* g : {"GPU-0", "GPU-1", "GPU-3", "GPU-2"}) {
    EXPECT_FALSE(Claim(worker_, g).has_value()) << g;
  }
  Finish(*lease);
  std::optional<Lease> next = Claim(worker_, "GPU-0");
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->job.id(), gpu_job.id());
}

TEST_F(NodeQueueStoreTest, GpuJobsQueuedBeforeTheNodeJobRunFirstThenTheWorkerDrains) {
  const v1::Job early1 = Enqueue();
  const v1::Job early2 = Enqueue();
  const v1::Job node = EnqueueNode();
  const v1::Job late = Enqueue();
  std::optional<Lease> a = Claim(worker_, "GPU-0");
  std::optional<Lease> b = Claim(worker_, "GPU-1");
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_EQ(a->job.id(), early1.id());
  EXPECT_EQ(b->job.id(), early2.id());
  // GPUs 2 and 3 are idle, but the node job heads the queue: the worker starts nothing after
  // it (not `late`), and cannot lease the node job while two of its GPUs are busy.
  EXPECT_FALSE(Claim(worker_, "GPU-2").has_value());
  EXPECT_FALSE(Claim(worker_, "GPU-3").has_value());
  Finish(*a);
  EXPECT_FALSE(Claim(worker_, "GPU-0").has_value()) << "GPU-1 still runs early2: not half";
  Finish(*b);
  EXPECT_FALSE(Claim(worker_, "GPU-1").has_value()) << "idle now, but the node's GPU is GPU-0";
  std::optional<Lease> n = Claim(worker_, "GPU-0");
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->job.id(), node.id());
  Finish(*n);
  std::optional<Lease> l = Claim(worker_, "GPU-3");
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->job.id(), late.id());
}

TEST_F(NodeQueueStoreTest, AHigherPriorityGpuJobStillRunsBeforeAWaitingNodeJob) {
  const v1::Job node = EnqueueNode();
  const v1::Job urgent = Enqueue([](v1::JobSpec& s) { s.set_priority(10); });
  std::optional<Lease> first = Claim(worker_, "GPU-3");
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->job.id(), urgent.id());
  EXPECT_FALSE(Claim(worker_, "GPU-0").has_value());  // draining for the node job
  Finish(*first);
  std::optional<Lease> n = Claim(worker_, "GPU-0");
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->job.id(), node.id());
}

// A node job pinned to one GPU (selector gpu_uuid): every GPU of that worker drains for it, and the
// pinned GPU leases it, whichever goes idle last.
TEST_F(NodeQueueStoreTest, ANodeJobPinnedToOneGpuDrainsEveryGpuOfItsWorker) {
  const v1::Job early = Enqueue();
  const v1::Job node = Enqueue([](v1::JobSpec& s) {
    s.clear_families();
    s.add_families("interconnect.nccl");
    s.set_node_scoped(true);
    s.mutable_selector()->set_gpu_uuid("GPU-2");
  });
  const v1::Job late = Enqueue();
  std::optional<Lease> a = Claim(worker_, "GPU-0");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->job.id(), early.id());
  EXPECT_FALSE(Claim(worker_, "GPU-1").has_value()) << "GPU-1 must drain, not take the later job";
  Finish(*a);
  EXPECT_FALSE(Claim(worker_, "GPU-0").has_value()) << "the node job is GPU-2's";
  std::optional<Lease> n = Claim(worker_, "GPU-2");
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->job.id(), node.id());
  EXPECT_FALSE(Claim(worker_, "GPU-0").has_value());
  Finish(*n);
  std::optional<Lease> l = Claim(worker_, "GPU-1");
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->job.id(), late.id());
}

// A node job pinned to another worker's GPU is not this worker's: it neither drains nor runs here.
TEST_F(NodeQueueStoreTest, ANodeJobOfAnotherWorkerDoesNotDrainThisOne) {
  const std::string other = Register({MakeDevice("GPU-other", "NVIDIA H100")});
  Enqueue([](v1::JobSpec& s) {
    s.clear_families();
    s.add_families("interconnect.nccl");
    s.set_node_scoped(true);
    s.mutable_selector()->set_gpu_uuid("GPU-other");
  });
  const v1::Job gpu_job = Enqueue();
  std::optional<Lease> here = Claim(worker_, "GPU-2");
  ASSERT_TRUE(here.has_value());
  EXPECT_EQ(here->job.id(), gpu_job.id());
  std::optional<Lease> there = Claim(other, "GPU-other");
  ASSERT_TRUE(there.has_value());
  EXPECT_TRUE(there->job.spec().node_scoped());
}

// The node's GPU is the first by CUDA ordinal, not by UUID; its run is that GPU's, night after
// night, whichever GPU of the worker was the last to go idle.
TEST_F(NodeQueueStoreTest, ANodeJobsRunIsTheNodesFirstGpusEveryNightWhicheverWentIdleLast) {
  std::vector<v1::Device> devices;
  for (int i = 0; i < 4; ++i) {
    v1::Device d = MakeDevice("GPU-n" + std::to_string(3 - i), "NVIDIA H100");
    d.set_index(i);  // GPU-n3 is ordinal 0
    devices.push_back(d);
  }
  const std::string node_worker = Register(devices);
  for (const std::string last_idle : {"GPU-n0", "GPU-n2"}) {
    SCOPED_TRACE(last_idle);
    const v1::Job busy = Enqueue([&](v1::JobSpec& s) {
      s.mutable_selector()->set_gpu_uuid(last_idle);
    });
    const v1::Job node = Enqueue([](v1::JobSpec& s) {
      s.clear_families();
      s.add_families("interconnect.nccl");
      s.set_node_scoped(true);
      s.mutable_selector()->set_gpu_model("NVIDIA H100");
    });
    std::optional<Lease> b = Claim(node_worker, last_idle);
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(b->job.id(), busy.id());
    ASSERT_OK(store_->FinishJob(node_worker, b->job.id(), b->run_id, v1::JOB_OUTCOME_SUCCEEDED, "")
                  .status());
    EXPECT_FALSE(Claim(node_worker, last_idle).has_value());
    std::optional<Lease> n = Claim(node_worker, "GPU-n3");
    ASSERT_TRUE(n.has_value());
    EXPECT_EQ(n->job.id(), node.id());
    ASSERT_OK_AND_ASSIGN(v1::Run run, store_->GetRun(n->run_id));
    EXPECT_EQ(run.environment().device().uuid(), "GPU-n3");
    ASSERT_OK(store_->FinishJob(node_worker, n->job.id(), n->run_id, v1::JOB_OUTCOME_SUCCEEDED, "")
                  .status());
  }
}

// Every GPU of the worker claims at once, again and again, over a queue of node and GPU jobs: at
// no moment does a node job run beside another job of the worker, and every job runs once.
TEST_F(NodeQueueStoreTest, ConcurrentClaimsNeverLeaseHalfANode) {
  constexpr int kNodeJobs = 6;
  constexpr int kGpuJobs = 24;
  std::set<int64_t> node_ids;
  for (int i = 0; i < kGpuJobs + kNodeJobs; ++i) {
    if (i % 5 == 2) {
      node_ids.insert(EnqueueNode().id());
    } else {
      Enqueue();
    }
  }
  ASSERT_EQ(node_ids.size(), static_cast<size_t>(kNodeJobs));
  std::mutex mu;
  std::set<int64_t> running;  // guarded by mu
  std::set<int64_t> done;     // guarded by mu
  std::atomic<int> violations{0};
  std::atomic<int> errors{0};
  const auto deadline = std::chrono::steady_clock::now() + seconds(90);
  std::vector<std::thread> threads;
  for (const std::string& gpu : kGpus) {
    threads.emplace_back([&, gpu] {
      std::unique_ptr<Store> store = OpenStore(1);
      while (std::chrono::steady_clock::now() < deadline) {
        {
          std::lock_guard<std::mutex> lock(mu);
          if (done.size() == static_cast<size_t>(kNodeJobs + kGpuJobs)) return;
        }
        StatusOr<std::optional<Lease>> r = store->ClaimJob(worker_, gpu, seconds(60));
        if (!r.ok()) {
          if (++errors > 20) return;
          continue;
        }
        if (!r->has_value()) {
          std::this_thread::yield();
          continue;
        }
        const Lease& lease = **r;
        const bool is_node = node_ids.count(lease.job.id()) > 0;
        {
          std::lock_guard<std::mutex> lock(mu);
          // A node job must find the worker empty and run as the node's GPU; a GPU job must
          // find no node job running.
          if (is_node && (!running.empty() || gpu != "GPU-0")) ++violations;
          for (int64_t id : running) {
            if (node_ids.count(id) > 0) ++violations;
          }
          running.insert(lease.job.id());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the job "runs"
        {
          std::lock_guard<std::mutex> lock(mu);
          running.erase(lease.job.id());
          if (!done.insert(lease.job.id()).second) ++violations;  // ran twice
        }
        // Finished after leaving `running`: the store's state is never emptier than ours.
        if (!store->FinishJob(worker_, lease.job.id(), lease.run_id, v1::JOB_OUTCOME_SUCCEEDED, "")
                 .ok()) {
          ++errors;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(violations.load(), 0);
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(done.size(), static_cast<size_t>(kNodeJobs + kGpuJobs));
}

}  // namespace
}  // namespace warpwatch::server::testing
