// File: server/service/detail/acquire_parking.h
// Where AcquireJob long-polls run without holding a thread each (gRPC's callback API: the handler
// returns and the call stays open). Two threads serve every poll:
//  - the arrival thread takes each new poll from the handler, checks its caller and makes its
//    first claim, one poll at a time, then answers it or parks it. The handler itself runs no
//    query: gRPC's callback threads also serve the health service, and a thousand workers
//    reconnecting at once (a server restart) used to block them all on the connection pool,
//    stalling health checks for 350 ms (docs/results/server_load.md). Now such a burst queues
//    here, drained at the pace of one connection, leaving the rest of the pool to heartbeats.
//  - the parking thread sleeps on the store's job notifier for all parked polls and, when a
//    notification arrives, claims for the polls its job may go to (the notification carries the
//    job's selector: JobWake), in parking order, until one of them leases that job: one claim
//    transaction per job, not one per parked poll. A thousand idle workers are a thousand entries
//    in a list, not a thousand threads waking ten times a second each.
#ifndef WARPWATCH_SERVER_SERVICE_DETAIL_ACQUIRE_PARKING_H_
#define WARPWATCH_SERVER_SERVICE_DETAIL_ACQUIRE_PARKING_H_

#include <grpcpp/server_context.h>
#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/server_callback.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "common/status/status.h"
#include "common/sync/shutdown_signal.h"
#include "server/auth/token_file.h"
#include "server/service/detail/principal_slots.h"
#include "server/store/store.h"
#include "warpwatch/v1/worker.pb.h"

namespace warpwatch::server::detail {

// The reactor of one AcquireJob call (served raw: gRPC hands the request's bytes), owning the
// parsed request and the response. Answer() is called exactly once, by the handler or by the
// parking thread; OnDone (gRPC, after it) deletes the reactor.
class AcquireReactor : public grpc::ServerUnaryReactor {
 public:
  // `response_bytes` is gRPC's, valid until the call is finished.
  explicit AcquireReactor(grpc::ByteBuffer* response_bytes) : response_bytes_(response_bytes) {}
  void OnCancel() override { cancelled_ = true; }  // noticed by the parking thread's next pass
  void OnDone() override { delete this; }
  bool cancelled() const { return cancelled_; }
  // Finishes the call with `status`, sending `response` when it is OK.
  void Answer(const grpc::Status& status);

  v1::AcquireJobRequest request;
  v1::AcquireJobResponse response;

 private:
  grpc::ByteBuffer* response_bytes_;
  std::atomic<bool> cancelled_{false};
};

// One parked poll. The pointers are gRPC's and stay valid until the reactor is finished.
struct ParkedPoll {
  AcquireReactor* reactor = nullptr;
  grpc::CallbackServerContext* context = nullptr;
  const v1::AcquireJobRequest* request = nullptr;
  v1::AcquireJobResponse* response = nullptr;
  auth::Principal caller;                   // who called, from its credentials
  std::string principal;                    // caller.name, for the log line of a failed claim
  std::chrono::steady_clock::time_point end;  // the wait ends: an empty answer
  uint64_t seen = 0;                        // notifier generation read before the last claim
  // What ClaimJob matches selectors against, read at admission (Admit); unknown: every wake
  // may be for this poll.
  std::optional<Claimant> claimant;
  // The caller's share of --max-parked-polls-per-principal, released with the poll.
  PrincipalSlots::Slot slot;
};

class AcquireParking {
 public:
  // The first step of a newly arrived poll: checks that the caller may act for the poll's worker,
  // sets poll.seen to the notifier's generation and claims (as Claim). Called on the arrival
  // thread.
  using Admit = std::function<StatusOr<bool>(ParkedPoll& poll)>;
  // One claim attempt for `poll`: true when a job was leased into poll.response; CANCELLED when
  // the client went away (a job claimed meanwhile is handed back). Called on the parking thread.
  using Claim = std::function<StatusOr<bool>(const ParkedPoll& poll)>;
  // The answer of a claim that failed, logged and converted as every handler's errors are.
  using Failure = std::function<grpc::Status(const ParkedPoll& poll, const Status& status)>;

  // `notifier` and `shutdown` must outlive this object. Starts both threads.
  AcquireParking(JobNotifier* notifier, const ShutdownSignal* shutdown, Admit admit, Claim claim,
                 Failure failure);
  // Finishes every poll still waiting to be admitted or parked (an empty answer) and stops both
  // threads.
  ~AcquireParking();

  // Takes a poll the handler has authorized and validated but not claimed for: the arrival thread
  // admits it (Admit), then answers it (a lease, the failure, or empty when its wait is already
  // over or the server stops) or parks it. Polls are admitted in arrival order. Thread-safe.
  void Arrive(ParkedPoll poll);
  // Takes the poll; it is answered by the thread: a lease after a notification, an empty answer
  // at poll.end or at shutdown, CANCELLED when the client goes away (noticed within kSlice).
  // Thread-safe.
  void Park(ParkedPoll poll);
  // Polls waiting to be admitted or parked now. Thread-safe.
  size_t size() const;

  // Longest sleep of the thread between passes: bounds how late a cancelled client, an expired
  // wait or a shutdown is answered. Notifications end the sleep at once.
  static constexpr std::chrono::milliseconds kSlice{50};

 private:
  void Loop();
  void ArrivalLoop();
  // Admits one arrived poll and answers or parks it (on the arrival thread).
  void AdmitOne(ParkedPoll poll);
  // One pass over the parked polls: finishes the cancelled, the expired (or all, at shutdown),
  // and claims for the wakes up to `generation` (ClaimForWakes). Not under mu_: claims run
  // queries.
  void Pass(uint64_t generation, bool shutting_down);
  // For each wake after a poll's `seen` (oldest first): claims for the polls it matches, in
  // order, until its job is leased or a claim finds nothing (the job went elsewhere); an `any`
  // wake lets every poll claim. A poll whose claim found nothing has seen every job up to
  // `generation` (the claim reads the committed queue) and claims no more in this pass. Leased
  // and failed polls are finished and removed.
  void ClaimForWakes(std::list<ParkedPoll>& polls, uint64_t generation);

  JobNotifier* notifier_;
  const ShutdownSignal* shutdown_;
  Admit admit_;
  Claim claim_;
  Failure failure_;
  mutable std::mutex mu_;
  std::list<ParkedPoll> polls_;  // guarded by mu_; the thread takes them out during a pass
  size_t in_pass_ = 0;           // guarded by mu_: polls taken out by the running pass
  std::atomic<bool> stopping_{false};
  std::thread thread_;

  mutable std::mutex arrivals_mu_;
  std::condition_variable arrivals_cv_;
  std::deque<ParkedPoll> arrivals_;  // guarded by arrivals_mu_
  size_t admitting_ = 0;             // guarded by arrivals_mu_: taken out, not yet parked
  bool arrivals_stopping_ = false;   // guarded by arrivals_mu_
  std::thread arrival_thread_;       // stopped before thread_: it parks into polls_
};

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_SERVICE_DETAIL_ACQUIRE_PARKING_H_
