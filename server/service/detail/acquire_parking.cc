// File: server/service/detail/acquire_parking.cc
#include "server/service/detail/acquire_parking.h"

#include <algorithm>

namespace warpwatch::server::detail {

using Clock = std::chrono::steady_clock;

AcquireParking::AcquireParking(JobNotifier* notifier, const ShutdownSignal* shutdown, Claim claim,
                               Failure failure)
    : notifier_(notifier),
      shutdown_(shutdown),
      claim_(std::move(claim)),
      failure_(std::move(failure)),
      thread_([this] { Loop(); }) {}

AcquireParking::~AcquireParking() {
  stopping_ = true;
  thread_.join();
}

void AcquireParking::Park(ParkedPoll poll) {
  std::lock_guard<std::mutex> lock(mu_);
  polls_.push_back(std::move(poll));
}

size_t AcquireParking::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return polls_.size() + in_pass_;
}

void AcquireParking::Loop() {
  while (true) {
    // Read before the pass: a notification during the pass ends the sleep below at once.
    const uint64_t generation = notifier_->Generation();
    const bool stopping = stopping_;
    Pass(generation, shutdown_->raised() || stopping);
    if (stopping) return;  // the pass above answered every poll
    Clock::duration sleep = kSlice;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (const ParkedPoll& p : polls_) sleep = std::min(sleep, p.end - Clock::now());
    }
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(sleep);
    if (ms.count() > 0) notifier_->WaitForJob(generation, ms);
  }
}

void AcquireParking::Pass(uint64_t generation, bool shutting_down) {
  std::list<ParkedPoll> polls;
  {
    std::lock_guard<std::mutex> lock(mu_);
    polls.swap(polls_);
    in_pass_ = polls.size();
  }
  for (auto it = polls.begin(); it != polls.end();) {
    ParkedPoll& p = *it;
    bool done = true;
    if (p.reactor->cancelled()) {
      p.reactor->Finish(grpc::Status(grpc::StatusCode::CANCELLED,
                                     "client went away during the long-poll"));
    } else if (shutting_down || Clock::now() >= p.end) {
      p.reactor->Finish(grpc::Status::OK);  // empty: the wait ended (or the server stops)
    } else if (p.seen < generation) {
      // A job was queued (or requeued) since this poll last claimed: claim again.
      p.seen = generation;
      StatusOr<bool> leased = claim_(p);
      if (!leased.ok()) {
        p.reactor->Finish(failure_(p, leased.status()));
      } else if (*leased) {
        p.reactor->Finish(grpc::Status::OK);
      } else {
        done = false;
      }
    } else {
      done = false;
    }
    it = done ? polls.erase(it) : std::next(it);
  }
  std::lock_guard<std::mutex> lock(mu_);
  polls_.splice(polls_.begin(), polls);  // survivors first: they were parked before new ones
  in_pass_ = 0;
}

}  // namespace warpwatch::server::detail
