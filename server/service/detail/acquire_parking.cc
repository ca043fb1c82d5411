// File: server/service/detail/acquire_parking.cc
#include "server/service/detail/acquire_parking.h"

#include <algorithm>

#include "server/service/detail/raw_unary_call.h"
#include "server/service/grpc_status.h"

namespace warpwatch::server::detail {

using Clock = std::chrono::steady_clock;

void AcquireReactor::Answer(const grpc::Status& status) {
  if (status.ok()) {
    if (Status serialized = SerializeRawResponse(response, response_bytes_); !serialized.ok()) {
      Finish(ToGrpcStatus(serialized));
      return;
    }
  }
  Finish(status);
}

namespace {

// Answers `poll` with its principal's slot given back first: a worker that polls again the moment
// it has its answer must find the slot free (released after the answer, it raced the next poll
// and was refused RESOURCE_EXHAUSTED now and then on a loaded machine).
void AnswerPoll(ParkedPoll& poll, const grpc::Status& status) {
  poll.slot = PrincipalSlots::Slot();
  poll.reactor->Answer(status);
}

}  // namespace

AcquireParking::AcquireParking(JobNotifier* notifier, const ShutdownSignal* shutdown, Admit admit,
                               Claim claim, Failure failure)
    : notifier_(notifier),
      shutdown_(shutdown),
      admit_(std::move(admit)),
      claim_(std::move(claim)),
      failure_(std::move(failure)),
      thread_([this] { Loop(); }),
      arrival_thread_([this] { ArrivalLoop(); }) {}

AcquireParking::~AcquireParking() {
  {
    std::lock_guard<std::mutex> lock(arrivals_mu_);
    arrivals_stopping_ = true;
  }
  arrivals_cv_.notify_all();
  arrival_thread_.join();  // answers what has not been admitted; parks nothing more
  stopping_ = true;
  thread_.join();
}

void AcquireParking::Arrive(ParkedPoll poll) {
  {
    std::lock_guard<std::mutex> lock(arrivals_mu_);
    arrivals_.push_back(std::move(poll));
  }
  arrivals_cv_.notify_one();
}

void AcquireParking::ArrivalLoop() {
  while (true) {
    ParkedPoll poll;
    bool stopping = false;
    {
      std::unique_lock<std::mutex> lock(arrivals_mu_);
      arrivals_cv_.wait(lock, [this] { return arrivals_stopping_ || !arrivals_.empty(); });
      if (arrivals_.empty()) return;  // stopping, and every arrival answered
      stopping = arrivals_stopping_;
      poll = std::move(arrivals_.front());
      arrivals_.pop_front();
      ++admitting_;
    }
    if (stopping) {
      AnswerPoll(poll, grpc::Status::OK);  // empty: the server stops
    } else {
      AdmitOne(std::move(poll));
    }
    std::lock_guard<std::mutex> lock(arrivals_mu_);
    --admitting_;
  }
}

void AcquireParking::AdmitOne(ParkedPoll poll) {
  if (poll.reactor->cancelled()) {
    AnswerPoll(poll,
               grpc::Status(grpc::StatusCode::CANCELLED, "client went away during the long-poll"));
    return;
  }
  // Claimed once even when its wait is already over (wait_seconds 0 asks for exactly that). A
  // poll queued behind a slow database past its client's deadline is cancelled, and ends above.
  if (shutdown_->raised()) {
    AnswerPoll(poll, grpc::Status::OK);  // empty: the server stops
    return;
  }
  StatusOr<bool> leased = admit_(poll);
  if (!leased.ok()) {
    AnswerPoll(poll, failure_(poll, leased.status()));
  } else if (*leased || shutdown_->raised() || Clock::now() >= poll.end) {
    AnswerPoll(poll, grpc::Status::OK);  // a lease, or empty: the wait is already over
  } else {
    Park(std::move(poll));
  }
}

void AcquireParking::Park(ParkedPoll poll) {
  std::lock_guard<std::mutex> lock(mu_);
  polls_.push_back(std::move(poll));
}

size_t AcquireParking::size() const {
  size_t arriving = 0;
  {
    std::lock_guard<std::mutex> lock(arrivals_mu_);
    arriving = arrivals_.size() + admitting_;
  }
  std::lock_guard<std::mutex> lock(mu_);
  return arriving + polls_.size() + in_pass_;
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
      AnswerPoll(
          p, grpc::Status(grpc::StatusCode::CANCELLED, "client went away during the long-poll"));
    } else if (shutting_down || Clock::now() >= p.end) {
      AnswerPoll(p, grpc::Status::OK);  // empty: the wait ended (or the server stops)
    } else {
      done = false;
    }
    it = done ? polls.erase(it) : std::next(it);
  }
  if (!shutting_down) ClaimForWakes(polls, generation);
  std::lock_guard<std::mutex> lock(mu_);
  polls_.splice(polls_.begin(), polls);  // survivors first: they were parked before new ones
  in_pass_ = 0;
}

void AcquireParking::ClaimForWakes(std::list<ParkedPoll>& polls, uint64_t generation) {
  uint64_t oldest = generation;
  for (const ParkedPoll& p : polls) oldest = std::min(oldest, p.seen);
  if (oldest >= generation) return;
  for (const JobWake& wake : notifier_->WakesSince(oldest)) {
    if (wake.generation > generation) break;  // the next pass handles it
    for (auto it = polls.begin(); it != polls.end();) {
      ParkedPoll& p = *it;
      if (p.seen >= wake.generation || (p.claimant && !WakeMatches(wake, *p.claimant))) {
        ++it;
        continue;
      }
      p.seen = generation;  // whatever the outcome, this claim reads the queue as of now
      StatusOr<bool> leased = claim_(p);
      if (!leased.ok()) {
        AnswerPoll(p, failure_(p, leased.status()));
        it = polls.erase(it);
        continue;  // the job is still there for the next poll
      }
      if (!*leased) {
        // Its job went elsewhere: no other poll needs to look (unless this poll's device was
        // unknown, and so perhaps not the job's).
        if (!wake.any && p.claimant) break;
        ++it;
        continue;
      }
      const bool took_it = wake.job_id == 0 || p.response->job().id() == wake.job_id;
      AnswerPoll(p, grpc::Status::OK);
      it = polls.erase(it);
      if (!wake.any && took_it) break;  // one claim for one job
    }
  }
  for (ParkedPoll& p : polls) p.seen = std::max(p.seen, generation);
}

}  // namespace warpwatch::server::detail
