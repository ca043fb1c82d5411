// File: server/service/detail/call_pool.h
// A few threads that run the bodies of raw callback RPCs (UploadRun, UploadMeasurements): their
// handlers authorize and size-check the request on gRPC's callback thread, then hand the parsing
// and the database work here, so the callback threads, which also answer health checks and
// AcquireJob arrivals, never wait on a query.
#ifndef WARPWATCH_SERVER_SERVICE_DETAIL_CALL_POOL_H_
#define WARPWATCH_SERVER_SERVICE_DETAIL_CALL_POOL_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace warpwatch::server::detail {

// Thread-safe. Tasks run in arrival order, `threads` at a time.
class CallPool {
 public:
  // Starts `threads` (at least 1) threads.
  explicit CallPool(int threads);
  // Runs every task already queued, then joins the threads. The gRPC server that queues tasks
  // must have stopped (Server::Wait returned) before: a task queued after this began is dropped.
  ~CallPool();
  CallPool(const CallPool&) = delete;
  CallPool& operator=(const CallPool&) = delete;

  // Queues `task`. It must not throw.
  void Run(std::function<void()> task);

 private:
  void Loop();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;  // guarded by mu_
  bool stopping_ = false;                    // guarded by mu_
  std::vector<std::thread> threads_;
};

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_SERVICE_DETAIL_CALL_POOL_H_
