// File: server/service/detail/acquire_parking.h
// Where AcquireJob long-polls wait without holding a thread each. A poll that found nothing to
// claim is parked here (gRPC's callback API: the handler returns and the call stays open); one
// thread sleeps on the store's job notifier for all of them and, when a notification arrives,
// claims again for each parked poll, one at a time. A thousand idle workers are a thousand
// entries in a list, not a thousand threads waking ten times a second each (measured with
// bench/bench_server_load --scenario fleet: docs/results/server_load.md).
#ifndef WARPWATCH_SERVER_SERVICE_DETAIL_ACQUIRE_PARKING_H_
#define WARPWATCH_SERVER_SERVICE_DETAIL_ACQUIRE_PARKING_H_

#include <grpcpp/server_context.h>
#include <grpcpp/support/server_callback.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <thread>

#include "common/status/status.h"
#include "server/service/shutdown_signal.h"
#include "server/store/store.h"
#include "warpwatch/v1/worker.pb.h"

namespace warpwatch::server::detail {

// The reactor of one AcquireJob call. Finish() is called exactly once, by the handler or by the
// parking thread; OnDone (gRPC, after Finish) deletes the reactor.
class AcquireReactor : public grpc::ServerUnaryReactor {
 public:
  void OnCancel() override { cancelled_ = true; }  // noticed by the parking thread's next pass
  void OnDone() override { delete this; }
  bool cancelled() const { return cancelled_; }

 private:
  std::atomic<bool> cancelled_{false};
};

// One parked poll. The pointers are gRPC's and stay valid until the reactor is finished.
struct ParkedPoll {
  AcquireReactor* reactor = nullptr;
  grpc::CallbackServerContext* context = nullptr;
  const v1::AcquireJobRequest* request = nullptr;
  v1::AcquireJobResponse* response = nullptr;
  std::string principal;                    // for the log line of a failed claim
  std::chrono::steady_clock::time_point end;  // the wait ends: an empty answer
  uint64_t seen = 0;                        // notifier generation read before the last claim
};

class AcquireParking {
 public:
  // One claim attempt for `poll`: true when a job was leased into poll.response; CANCELLED when
  // the client went away (a job claimed meanwhile is handed back). Called on the parking thread.
  using Claim = std::function<StatusOr<bool>(const ParkedPoll& poll)>;
  // The answer of a claim that failed, logged and converted as every handler's errors are.
  using Failure = std::function<grpc::Status(const ParkedPoll& poll, const Status& status)>;

  // `notifier` and `shutdown` must outlive this object. Starts the parking thread.
  AcquireParking(JobNotifier* notifier, const ShutdownSignal* shutdown, Claim claim,
                 Failure failure);
  // Finishes every poll still parked (an empty answer) and stops the thread.
  ~AcquireParking();

  // Takes the poll; it is answered by the thread: a lease after a notification, an empty answer
  // at poll.end or at shutdown, CANCELLED when the client goes away (noticed within kSlice).
  // Thread-safe.
  void Park(ParkedPoll poll);
  // Polls parked now. Thread-safe.
  size_t size() const;

  // Longest sleep of the thread between passes: bounds how late a cancelled client, an expired
  // wait or a shutdown is answered. Notifications end the sleep at once.
  static constexpr std::chrono::milliseconds kSlice{50};

 private:
  void Loop();
  // One pass over the parked polls: finishes the cancelled, the expired (or all, at shutdown),
  // and claims for those whose generation is behind `generation`.
  // Not under mu_: claims run queries.
  void Pass(uint64_t generation, bool shutting_down);

  JobNotifier* notifier_;
  const ShutdownSignal* shutdown_;
  Claim claim_;
  Failure failure_;
  mutable std::mutex mu_;
  std::list<ParkedPoll> polls_;  // guarded by mu_; the thread takes them out during a pass
  size_t in_pass_ = 0;           // guarded by mu_: polls taken out by the running pass
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_SERVICE_DETAIL_ACQUIRE_PARKING_H_
