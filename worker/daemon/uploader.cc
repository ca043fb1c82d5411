// File: worker/daemon/uploader.cc
#include "worker/daemon/uploader.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <iterator>
#include <utility>

namespace warpwatch::worker {
namespace {

bool TransientUploadError(StatusCode code) {
  return code == StatusCode::kUnavailable || code == StatusCode::kDeadlineExceeded ||
         code == StatusCode::kAborted || code == StatusCode::kCancelled;
}

}  // namespace

Uploader::Uploader(WorkerClient* client, Registrar* registrar, UploaderOptions options)
    : client_(client), registrar_(registrar), options_(std::move(options)) {}

Uploader::~Uploader() { Stop(); }

void Uploader::Start() { thread_ = std::thread([this] { Loop(); }); }

void Uploader::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mu_);
  if (!queue_.empty()) {
    spdlog::warn("uploader stopped with {} measurements not uploaded", queue_.size());
  }
  for (const Item& item : queue_) --runs_[item.run_id].pending;
  counts_.dropped += static_cast<int64_t>(queue_.size());
  queue_.clear();
  cv_.notify_all();
}

void Uploader::SetEnvironment(int64_t run_id, const v1::RunEnvironment& environment) {
  std::lock_guard<std::mutex> lock(mu_);
  runs_[run_id].environment = environment;
}

void Uploader::Enqueue(int64_t run_id, v1::Measurement measurement) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return stop_ || queue_.size() < options_.queue_capacity; });
    if (stop_) {
      ++counts_.dropped;
      return;
    }
    if (runs_[run_id].abandoned) return;
    ++runs_[run_id].pending;
    queue_.push_back(Item{run_id, std::move(measurement)});
  }
  cv_.notify_all();
}

Status Uploader::WaitUploaded(int64_t run_id, const std::function<bool()>& give_up) {
  std::unique_lock<std::mutex> lock(mu_);
  RunState& run = runs_[run_id];
  while (run.pending > 0) {
    if (give_up && give_up()) {
      return UnavailableError(std::to_string(run.pending) + " measurements not uploaded");
    }
    cv_.wait_for(lock, std::chrono::milliseconds(100));
  }
  return run.error;
}

void Uploader::Abandon(int64_t run_id) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    RunState& run = runs_[run_id];
    run.abandoned = true;
    for (auto it = queue_.begin(); it != queue_.end();) {
      if (it->run_id != run_id) {
        ++it;
        continue;
      }
      --run.pending;
      ++counts_.dropped;
      it = queue_.erase(it);
    }
  }
  cv_.notify_all();
}

void Uploader::Forget(int64_t run_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = runs_.find(run_id);
  if (it != runs_.end() && it->second.pending == 0) runs_.erase(it);
}

UploaderCounts Uploader::counts() const {
  std::lock_guard<std::mutex> lock(mu_);
  return counts_;
}

size_t Uploader::queued() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size();
}

std::vector<v1::Measurement> Uploader::TakeBatch(int64_t* run_id) {
  *run_id = queue_.front().run_id;
  std::vector<v1::Measurement> batch;
  size_t bytes = 0;
  for (auto it = queue_.begin(); it != queue_.end() && batch.size() < options_.batch_max_points;) {
    if (it->run_id != *run_id) {
      ++it;
      continue;
    }
    size_t size = it->measurement.ByteSizeLong();
    if (!batch.empty() && bytes + size > options_.batch_max_bytes) break;
    bytes += size;
    batch.push_back(std::move(it->measurement));
    it = queue_.erase(it);
  }
  return batch;
}

void Uploader::Loop() {
  while (true) {
    int64_t run_id = 0;
    std::vector<v1::Measurement> batch;
    v1::RunEnvironment environment;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      batch = TakeBatch(&run_id);
      const RunState& run = runs_[run_id];
      if (!run.environment_sent) environment = run.environment;
    }
    cv_.notify_all();  // room in the queue
    const int64_t n = static_cast<int64_t>(batch.size());
    Status status = Send(run_id, environment, std::move(batch));
    {
      std::lock_guard<std::mutex> lock(mu_);
      RunState& run = runs_[run_id];
      run.pending -= n;
      if (status.ok()) {
        run.environment_sent = true;
      } else {
        if (run.error.ok()) run.error = status;
        if (status.code() != StatusCode::kCancelled) {
          spdlog::error("run {}: upload gave up: {}", run_id, status.ToString());
        }
      }
    }
    cv_.notify_all();
  }
}

bool Uploader::ShouldAbort(int64_t run_id) {
  std::lock_guard<std::mutex> lock(mu_);
  return stop_ || runs_[run_id].abandoned;
}

Status Uploader::Send(int64_t run_id, const v1::RunEnvironment& environment,
                      std::vector<v1::Measurement> batch) {
  Backoff backoff(options_.backoff);
  int internal_failures = 0;
  while (true) {
    if (ShouldAbort(run_id)) {
      std::lock_guard<std::mutex> lock(mu_);
      counts_.dropped += static_cast<int64_t>(batch.size());
      return Status(StatusCode::kCancelled, "upload abandoned");
    }
    v1::UploadMeasurementsRequest request;
    request.set_worker_id(registrar_->worker_id());
    request.set_run_id(run_id);
    if (environment.has_device() || !environment.hostname().empty()) {
      *request.mutable_environment() = environment;
    }
    for (const v1::Measurement& m : batch) *request.add_measurements() = m;
    StatusOr<v1::UploadMeasurementsResponse> response = client_->UploadMeasurements(request);
    if (response.ok()) {
      std::lock_guard<std::mutex> lock(mu_);
      counts_.inserted += response->inserted();
      counts_.duplicates += response->duplicates();
      return OkStatus();
    }
    const Status& error = response.status();
    if (error.code() == StatusCode::kResourceExhausted && batch.size() > 1) {
      // Refused as too large: each half on its own (recursively down to single measurements).
      std::vector<v1::Measurement> second(std::make_move_iterator(batch.begin() + batch.size() / 2),
                                          std::make_move_iterator(batch.end()));
      batch.resize(batch.size() / 2);
      Status first_status = Send(run_id, environment, std::move(batch));
      Status second_status = Send(run_id, environment, std::move(second));
      return first_status.ok() ? second_status : first_status;
    }
    if (error.code() == StatusCode::kFailedPrecondition) {
      // The run is finished server-side: its lease is lost, and nothing more of it counts.
      spdlog::warn("run {}: upload refused, lease lost: {}", run_id, error.message());
      if (options_.on_run_lost) options_.on_run_lost(run_id);
      std::lock_guard<std::mutex> lock(mu_);
      counts_.dropped += static_cast<int64_t>(batch.size());
      return error.Annotate("uploading " + std::to_string(batch.size()) + " measurements");
    }
    bool retry = TransientUploadError(error.code()) ||
                 ((error.code() == StatusCode::kInternal || error.code() == StatusCode::kUnknown) &&
                  ++internal_failures < options_.max_internal_retries);
    if (!retry) {
      std::lock_guard<std::mutex> lock(mu_);
      counts_.dropped += static_cast<int64_t>(batch.size());
      return error.Annotate("uploading " + std::to_string(batch.size()) + " measurements");
    }
    auto delay = backoff.NextDelay();
    if (backoff.attempt() == 1 || backoff.attempt() % 10 == 0) {
      spdlog::warn("run {}: upload failed ({}), retrying in {} ms", run_id, error.ToString(),
                   delay.count());
    }
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, delay, [&] { return stop_ || runs_[run_id].abandoned; });
  }
}

}  // namespace warpwatch::worker
