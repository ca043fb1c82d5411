// File: server/store/detail/pg_job_notifier.cc
#include "server/store/detail/pg_job_notifier.h"

#include <algorithm>
#include <pqxx/pqxx>

namespace warpwatch::server::detail {
namespace {

class Receiver : public pqxx::notification_receiver {
 public:
  Receiver(pqxx::connection_base& conn, PgJobNotifier* notifier)
      : pqxx::notification_receiver(conn, kJobQueuedChannel), notifier_(notifier) {}
  void operator()(const std::string& /*payload*/, int /*backend_pid*/) override {
    notifier_->Bump();
  }

 private:
  PgJobNotifier* notifier_;
};

constexpr std::chrono::milliseconds kPollSlice{100};  // how often the thread checks stop_
constexpr std::chrono::milliseconds kMinBackoff{100};
constexpr std::chrono::milliseconds kMaxBackoff{1000};

}  // namespace

PgJobNotifier::PgJobNotifier(std::string url) : url_(std::move(url)), thread_([this] { Loop(); }) {}

PgJobNotifier::~PgJobNotifier() {
  stop_ = true;
  cv_.notify_all();
  thread_.join();
}

uint64_t PgJobNotifier::Generation() const {
  std::lock_guard<std::mutex> lock(mu_);
  return generation_;
}

bool PgJobNotifier::WaitForJob(uint64_t seen, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return generation_ > seen; });
}

void PgJobNotifier::Bump() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++generation_;
  }
  cv_.notify_all();
}

void PgJobNotifier::Pause(std::chrono::milliseconds d) {
  const auto end = std::chrono::steady_clock::now() + d;
  while (!stop_ && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(kPollSlice, d));
  }
}

void PgJobNotifier::Loop() {
  std::chrono::milliseconds backoff = kMinBackoff;
  while (!stop_) {
    try {
      pqxx::connection conn(url_);
      Receiver receiver(conn, this);  // issues LISTEN
      // Notifications sent while no LISTEN was active are lost: tell waiters to look again.
      listening_ = true;
      Bump();
      backoff = kMinBackoff;
      while (!stop_) {
        // Throws broken_connection once the server goes away.
        conn.await_notification(0, kPollSlice.count() * 1000);
      }
      listening_ = false;
    } catch (const std::exception&) {
      // Database unreachable or the connection broke: retry with backoff.
      listening_ = false;
    }
    Pause(backoff);
    backoff = std::min(backoff * 2, kMaxBackoff);
  }
}

}  // namespace warpwatch::server::detail
