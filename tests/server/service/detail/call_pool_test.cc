// File: tests/server/service/detail/call_pool_test.cc
// CallPool (server/service/detail/call_pool.h): tasks run on its own threads, at most `threads`
// at once, and every task queued before it is destroyed runs.
#include "server/service/detail/call_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

namespace warpwatch::server::detail {
namespace {

TEST(CallPoolTest, EveryTaskQueuedBeforeItIsDestroyedRuns) {
  std::atomic<int> ran{0};
  {
    CallPool pool(2);
    for (int i = 0; i < 200; ++i) pool.Run([&ran] { ++ran; });
  }  // the destructor drains the queue
  EXPECT_EQ(ran.load(), 200);
}

TEST(CallPoolTest, TasksRunOnItsThreadsAtMostThreadsAtOnce) {
  constexpr int kThreads = 3;
  std::mutex mu;
  std::condition_variable cv;
  int running = 0, most = 0, started = 0;
  std::set<std::thread::id> ids;
  {
    CallPool pool(kThreads);
    for (int i = 0; i < 4 * kThreads; ++i) {
      pool.Run([&] {
        std::unique_lock<std::mutex> lock(mu);
        ids.insert(std::this_thread::get_id());
        most = std::max(most, ++running);
        ++started;
        cv.notify_all();
        // The first kThreads tasks wait until kThreads run at once (generous deadline).
        cv.wait_for(lock, std::chrono::seconds(10), [&] { return started >= kThreads; });
        --running;
      });
    }
  }
  EXPECT_EQ(most, kThreads);
  EXPECT_LE(ids.size(), static_cast<size_t>(kThreads));
  EXPECT_EQ(ids.count(std::this_thread::get_id()), 0u);
}

}  // namespace
}  // namespace warpwatch::server::detail
