// The contention generator's buffers, calibration and launch loop.
#include "worker/contention/contention_generator.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "kernels/core/cuda_check.h"

namespace warpwatch::worker {
namespace {

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kWord = 16;               // the copy moves 16-byte words
constexpr size_t kProbeBytes = 64 * kMiB;  // calibration copy, before scaling to the target
constexpr size_t kMinBufferBytes = 64 * kMiB;
constexpr int kSourceByte = 0x3c;             // the source's fill; the destination starts at 0
constexpr size_t kReadBackBytes = 64 * kMiB;  // VerifyCopied reads the destination in pieces

// Makes `device` current for the scope; puts the caller's device back.
class ScopedDevice {
 public:
  explicit ScopedDevice(int device) {
    if (cudaGetDevice(&previous_) != cudaSuccess) previous_ = -1;
    status_ = cudaSetDevice(device);
  }
  ~ScopedDevice() {
    if (previous_ >= 0) CUDA_CHECK_NOEXCEPT(cudaSetDevice(previous_));
  }
  cudaError_t status() const { return status_; }

 private:
  int previous_ = -1;
  cudaError_t status_ = cudaSuccess;
};

// cudaMalloc that leaves no error behind for the process's next launch check to find.
Status Allocate(size_t bytes, void** ptr) {
  const cudaError_t err = cudaMalloc(ptr, bytes);
  if (err == cudaSuccess) return OkStatus();
  (void)cudaGetLastError();
  *ptr = nullptr;
  return kernels::CudaError(err, "cudaMalloc(contention buffer)", __FILE__, __LINE__);
}

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

StatusOr<std::unique_ptr<ContentionGenerator>> ContentionGenerator::Start(
    int device, const ContentionConfig& config) {
  if (config.buffer_bytes < kMinBufferBytes) {
    return InvalidArgumentError("contention: buffers of " + std::to_string(config.buffer_bytes) +
                                " bytes; at least 64 MiB each");
  }
  if (!(config.duty > 0 && config.duty <= 1)) {
    return InvalidArgumentError("contention: duty must be in (0, 1]");
  }
  if (config.max_in_flight < 1 || !(config.target_launch_seconds > 0) ||
      !(config.period_seconds > 0)) {
    return InvalidArgumentError("contention: max_in_flight, launch and period must be positive");
  }
  ScopedDevice scope(device);
  CUDA_RETURN_IF_ERROR(scope.status());
  auto g = std::unique_ptr<ContentionGenerator>(new ContentionGenerator());
  g->device_ = device;
  g->config_ = config;
  g->buffer_bytes_ = config.buffer_bytes / kMiB * kMiB;
  ASSIGN_OR_RETURN(g->shape_, StreamCopyShapeForCurrentDevice());
  CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&g->stream_, cudaStreamNonBlocking));
  RETURN_IF_ERROR(Allocate(g->buffer_bytes_, &g->d_src_));
  RETURN_IF_ERROR(Allocate(g->buffer_bytes_, &g->d_dst_));
  // Defined input (and every page touched) before the first copy; on the generator's stream.
  CUDA_RETURN_IF_ERROR(cudaMemsetAsync(g->d_src_, kSourceByte, g->buffer_bytes_, g->stream_));
  CUDA_RETURN_IF_ERROR(cudaMemsetAsync(g->d_dst_, 0, g->buffer_bytes_, g->stream_));
  CUDA_RETURN_IF_ERROR(cudaEventCreateWithFlags(&g->timing_start_, cudaEventBlockingSync));
  CUDA_RETURN_IF_ERROR(cudaEventCreateWithFlags(&g->timing_stop_, cudaEventBlockingSync));
  g->ring_.assign(static_cast<size_t>(config.max_in_flight), nullptr);
  for (cudaEvent_t& e : g->ring_) {
    CUDA_RETURN_IF_ERROR(
        cudaEventCreateWithFlags(&e, cudaEventBlockingSync | cudaEventDisableTiming));
  }
  RETURN_IF_ERROR(g->Calibrate());
  ContentionGenerator* self = g.get();
  g->thread_ = std::thread([self] { self->error_ = self->Loop(); });
  return StatusOr<std::unique_ptr<ContentionGenerator>>(std::move(g));
}

Status ContentionGenerator::EnqueueCopy(size_t offset, size_t bytes) {
  const char* src = static_cast<const char*>(d_src_) + offset;
  char* dst = static_cast<char*>(d_dst_) + offset;
  if (config_.engine == ContentionEngine::kCopy) {
    CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream_));
    return OkStatus();
  }
  return LaunchStreamCopy(src, dst, bytes / kWord, shape_, stream_);
}

Status ContentionGenerator::TimedCopy(size_t bytes, double* seconds) {
  CUDA_RETURN_IF_ERROR(cudaEventRecord(timing_start_, stream_));
  RETURN_IF_ERROR(EnqueueCopy(0, bytes));
  CUDA_RETURN_IF_ERROR(cudaEventRecord(timing_stop_, stream_));
  CUDA_RETURN_IF_ERROR(cudaEventSynchronize(timing_stop_));
  float ms = 0;
  CUDA_RETURN_IF_ERROR(cudaEventElapsedTime(&ms, timing_start_, timing_stop_));
  *seconds = static_cast<double>(ms) * 1e-3;
  return OkStatus();
}

Status ContentionGenerator::Calibrate() {
  const size_t probe = std::min(kProbeBytes, buffer_bytes_);
  double seconds = 0;
  // The first copy loads the module (lazy loading) or sets up the copy engine's channel; the
  // second is timed for real.
  RETURN_IF_ERROR(TimedCopy(probe, &seconds));
  RETURN_IF_ERROR(TimedCopy(probe, &seconds));
  if (!(seconds > 0)) return InternalError("contention: calibration copy took no time");
  const double scaled = static_cast<double>(probe) * config_.target_launch_seconds / seconds;
  chunk_bytes_ = std::clamp(static_cast<size_t>(scaled) / kMiB * kMiB, kMiB, buffer_bytes_);
  return TimedCopy(chunk_bytes_, &launch_seconds_);
}

Status ContentionGenerator::Loop() {
  CUDA_RETURN_IF_ERROR(cudaSetDevice(device_));  // the current device is per host thread
  const size_t chunks = std::max<size_t>(1, buffer_bytes_ / chunk_bytes_);
  const size_t ring = ring_.size();
  const auto burst_length = std::chrono::duration<double>(config_.duty * config_.period_seconds);
  started_ = Clock::now();
  Clock::time_point burst_start = started_;
  int64_t i = 0;
  cudaEvent_t last = nullptr;  // the newest launch's event: waiting on it drains the stream
  Status status = OkStatus();
  while (status.ok() && !stop_.load()) {
    if (config_.duty < 1 && Clock::now() - burst_start >= burst_length) {
      // End of a burst: let the GPU go idle, then stay away for the rest of the period.
      const cudaError_t drained = last != nullptr ? cudaEventSynchronize(last) : cudaSuccess;
      if (drained != cudaSuccess) {
        status = kernels::CudaError(drained, "cudaEventSynchronize(burst end)", __FILE__, __LINE__);
      }
      const double busy = Seconds(Clock::now() - burst_start);
      busy_seconds_ += busy;
      const auto idle = std::chrono::duration<double>(busy * (1 - config_.duty) / config_.duty);
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait_for(lock, idle, [this] { return stop_.load(); });
      burst_start = Clock::now();
      continue;
    }
    cudaEvent_t slot = ring_[static_cast<size_t>(i) % ring];
    // The event of the launch `ring` back: once it completed, at most ring - 1 launches are queued.
    if (i >= static_cast<int64_t>(ring)) CUDA_RETURN_IF_ERROR(cudaEventSynchronize(slot));
    const size_t offset = static_cast<size_t>(i) % chunks * chunk_bytes_;
    RETURN_IF_ERROR(EnqueueCopy(offset, chunk_bytes_));
    CUDA_RETURN_IF_ERROR(cudaEventRecord(slot, stream_));
    last = slot;
    ++i;
    launches_ = i;
  }
  if (last != nullptr) {
    cudaError_t drained = cudaEventSynchronize(last);
    if (status.ok() && drained != cudaSuccess) {
      status = kernels::CudaError(drained, "final drain", __FILE__, __LINE__);
    }
  }
  ended_ = Clock::now();
  busy_seconds_ += config_.duty < 1 ? Seconds(ended_ - burst_start) : Seconds(ended_ - started_);
  return status;
}

Status ContentionGenerator::Stop(ContentionReport* report) {
  if (!stopped_) {
    stopped_ = true;
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_.store(true);
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    // A loop that left on an error may have left launches queued: drain them (own stream only).
    ScopedDevice scope(device_);
    const cudaError_t drained = stream_ != nullptr ? cudaStreamSynchronize(stream_) : cudaSuccess;
    if (error_.ok() && drained != cudaSuccess) {
      error_ = kernels::CudaError(drained, "cudaStreamSynchronize(contention stream)", __FILE__,
                                  __LINE__);
    }
    if (ended_ == Clock::time_point()) ended_ = Clock::now();
    if (started_ == Clock::time_point()) started_ = ended_;
    report_.launches = launches_;
    report_.bytes_moved = 2.0 * static_cast<double>(chunk_bytes_) * static_cast<double>(launches_);
    report_.seconds = Seconds(ended_ - started_);
    report_.busy_seconds = std::min(busy_seconds_, report_.seconds);
    report_.chunk_bytes = chunk_bytes_;
    report_.launch_seconds = launch_seconds_;
    report_.error = error_.ok() ? "" : error_.ToString();
  }
  *report = report_;
  return error_;
}

StatusOr<size_t> ContentionGenerator::VerifyCopied() {
  if (!stopped_) return FailedPreconditionError("contention: VerifyCopied before Stop");
  ScopedDevice scope(device_);
  CUDA_RETURN_IF_ERROR(scope.status());
  // Calibration copied [0, max(probe, chunk)); the loop's launches cover chunk after chunk.
  const size_t chunks = std::max<size_t>(1, buffer_bytes_ / chunk_bytes_);
  const size_t probe = std::min(kProbeBytes, buffer_bytes_);
  const size_t looped = std::min<size_t>(static_cast<size_t>(launches_), chunks) * chunk_bytes_;
  const size_t covered = std::max({looped, probe, chunk_bytes_});
  std::vector<unsigned char> h_dst(std::min(kReadBackBytes, covered));
  for (size_t begin = 0; begin < covered; begin += h_dst.size()) {
    const size_t n = std::min(h_dst.size(), covered - begin);
    CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(h_dst.data(), static_cast<const char*>(d_dst_) + begin, n,
                                         cudaMemcpyDeviceToHost, stream_));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream_));
    for (size_t k = 0; k < n; ++k) {
      if (h_dst[k] != kSourceByte) {
        return InternalError("contention: destination byte " + std::to_string(begin + k) + " is " +
                             std::to_string(h_dst[k]) + ", not the source's " +
                             std::to_string(kSourceByte) + " (" + std::to_string(covered) +
                             " bytes copied)");
      }
    }
  }
  if (covered < buffer_bytes_) {
    unsigned char past = kSourceByte;
    CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(&past, static_cast<const char*>(d_dst_) + covered, 1,
                                         cudaMemcpyDeviceToHost, stream_));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream_));
    if (past != 0) {
      return InternalError("contention: destination byte " + std::to_string(covered) +
                           ", past the copies, is " + std::to_string(past) + ", not 0");
    }
  }
  return covered;
}

ContentionGenerator::~ContentionGenerator() {
  if (!stopped_ && thread_.joinable()) {
    ContentionReport ignored;
    Status s = Stop(&ignored);
    if (!s.ok()) std::fprintf(stderr, "contention generator: %s\n", s.ToString().c_str());
  }
  ScopedDevice scope(device_);
  for (cudaEvent_t e : ring_) {
    if (e != nullptr) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(e));
  }
  if (timing_start_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(timing_start_));
  if (timing_stop_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(timing_stop_));
  if (stream_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaStreamDestroy(stream_));
  // cudaFree synchronises the device: by now the generator's own work is done, and this runs when
  // the run is over.
  if (d_src_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaFree(d_src_));
  if (d_dst_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaFree(d_dst_));
}

}  // namespace warpwatch::worker
