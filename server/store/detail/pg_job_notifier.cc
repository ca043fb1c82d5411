// File: server/store/detail/pg_job_notifier.cc
#include "server/store/detail/pg_job_notifier.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

namespace warpwatch::server::detail {
namespace {

class Receiver : public pqxx::notification_receiver {
 public:
  Receiver(pqxx::connection_base& conn, PgJobNotifier* notifier)
      : pqxx::notification_receiver(conn, kJobQueuedChannel), notifier_(notifier) {}
  void operator()(const std::string& payload, int /*backend_pid*/) override {
    notifier_->Bump(ParseJobWake(payload));
  }

 private:
  PgJobNotifier* notifier_;
};

constexpr std::chrono::milliseconds kPollSlice{100};  // how often the thread checks stop_
constexpr std::chrono::milliseconds kMinBackoff{100};
constexpr std::chrono::milliseconds kMaxBackoff{1000};

}  // namespace

JobWake ParseJobWake(const std::string& payload) {
  JobWake wake;
  const nlohmann::json doc = nlohmann::json::parse(payload, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return wake;
  auto text = [&](const char* key, std::string* out) {
    auto it = doc.find(key);
    if (it == doc.end()) return true;
    if (!it->is_string()) return false;
    *out = it->get<std::string>();
    return true;
  };
  auto job = doc.find("job");
  if (job != doc.end() && job->is_number_integer()) wake.job_id = job->get<int64_t>();
  auto labels = doc.find("labels");
  const bool has_selector =
      doc.contains("model") && doc.contains("uuid") && labels != doc.end() && labels->is_object();
  if (!has_selector || !text("model", &wake.gpu_model) || !text("uuid", &wake.gpu_uuid)) {
    return JobWake{0, wake.job_id, true, "", "", {}};
  }
  for (const auto& [key, value] : labels->items()) {
    if (!value.is_string()) return JobWake{0, wake.job_id, true, "", "", {}};
    wake.worker_labels[key] = value.get<std::string>();
  }
  wake.any = false;
  return wake;
}

PgJobNotifier::PgJobNotifier(std::string url) : url_(std::move(url)) {
  if (!url_.empty()) thread_ = std::thread([this] { Loop(); });
}

PgJobNotifier::~PgJobNotifier() {
  stop_ = true;
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

uint64_t PgJobNotifier::Generation() const {
  std::lock_guard<std::mutex> lock(mu_);
  return generation_;
}

bool PgJobNotifier::WaitForJob(uint64_t seen, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return generation_ > seen; });
}

std::vector<JobWake> PgJobNotifier::WakesSince(uint64_t seen) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<JobWake> out;
  if (seen >= generation_) return out;
  const uint64_t oldest_kept = generation_ - wakes_.size() + 1;
  if (seen + 1 < oldest_kept) {
    JobWake missed;  // any: older than what is kept
    missed.generation = oldest_kept - 1;
    out.push_back(missed);
  }
  for (const JobWake& w : wakes_) {
    if (w.generation > seen) out.push_back(w);
  }
  return out;
}

void PgJobNotifier::Bump(JobWake wake) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    wake.generation = ++generation_;
    wakes_.push_back(std::move(wake));
    if (wakes_.size() > kKeptWakes) wakes_.pop_front();
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
