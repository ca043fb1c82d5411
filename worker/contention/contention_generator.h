// The test-only GPU contention generator: keeps DRAM busy from the measuring process while the
// suite runs, to slow the GPU side for real (contention_options.h says why and when).
//
// How: two device buffers (each much larger than L2) and a host thread that relaunches a short
// copy between them (calibrated at start to ~200 us per launch) on a stream of its own created
// with cudaStreamNonBlocking, so it never orders against the legacy default stream
// nor the engine's streams. At most `max_in_flight` launches are queued (the thread waits on the
// event of the launch max_in_flight back), so stopping waits for under a millisecond of work. It
// never calls cudaDeviceSynchronize and never touches the legacy default stream: every wait is on
// its own events or stream. Why in-process: a second process only time-slices with ours (measured
// on the H100: +0.1 % at the median), while kernels of one process share the SMs and DRAM.
//
// The copy is one of two engines (ContentionConfig::engine): kKernel launches StreamCopyKernel (2
// blocks x 256 threads per SM: it holds SM slots as well as bandwidth, so SM-bound cases slow too);
// kCopy enqueues cudaMemcpyAsync device to device, which the driver runs on a copy engine, leaving
// the SMs to the measured kernels, so that the HBM is what is contended. Both share calibration,
// queue depth, duty cycle and report.
//
// What still waits for it: calls that synchronise the whole device (cudaDeviceSynchronize,
// cudaFree, cudaMalloc of some sizes) in the engine or a case wait for the launches in flight,
// at most max_in_flight x ~200 us. The engine times on its own stream with events; see
// docs/operations.md "Test-only GPU contention" for where the engine does synchronise the device.
#ifndef WARPWATCH_WORKER_CONTENTION_CONTENTION_GENERATOR_H_
#define WARPWATCH_WORKER_CONTENTION_CONTENTION_GENERATOR_H_

#include <cuda_runtime_api.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "common/status/status.h"
#include "worker/contention/contention_options.h"
#include "worker/contention/contention_report.h"
#include "worker/contention/stream_copy.h"

namespace warpwatch::worker {

struct ContentionConfig {
  size_t buffer_bytes = size_t{1} << 30;  // each of the two buffers (rounded down to 1 MiB)
  double duty = 1;                        // busy fraction, (0, 1]; 1 = back to back
  double target_launch_seconds = 200e-6;  // one launch's length, alone, after calibration
  int max_in_flight = 4;                  // launches queued on the stream at most
  double period_seconds = 0.02;           // duty < 1: one burst + its idle time
  ContentionEngine engine = ContentionEngine::kKernel;  // copy kernel or cudaMemcpyAsync
};

// Thread safety: Start, Stop and the destructor are called by one owner thread; the generator's
// own thread only launches, waits on its own events and counts.
class ContentionGenerator {
 public:
  // Allocates the buffers on `device`, creates the stream and events, calibrates the launch size
  // (two timed launches on its stream) and starts the thread. The caller's current device is
  // restored. INVALID_ARGUMENT for a config out of range; the CUDA error (e.g.
  // cudaErrorMemoryAllocation for buffers that do not fit) otherwise.
  static StatusOr<std::unique_ptr<ContentionGenerator>> Start(int device,
                                                              const ContentionConfig& config);
  // Stops (if Stop was not called: its error is logged to stderr), then frees everything.
  ~ContentionGenerator();
  ContentionGenerator(const ContentionGenerator&) = delete;
  ContentionGenerator& operator=(const ContentionGenerator&) = delete;

  // Stops launching, waits for the generator's own launches, and fills *report (always, also on
  // error). Returns the first CUDA error the generator met (also in report->error), else OK. A
  // second call returns the same.
  Status Stop(ContentionReport* report);

  // Checks what the copies wrote: every byte of the destination chunks the completed copies
  // covered holds the source's byte (the source is filled with 0x3c, the destination with 0 at
  // Start), and the first byte past them, if any, is still 0. Returns the bytes checked.
  // Precondition: Stop() was called (FAILED_PRECONDITION otherwise). INTERNAL naming the first
  // wrong offset; the CUDA error of the read-back (on the generator's own stream).
  StatusOr<size_t> VerifyCopied();

  // The copy kernel, for traces (PointEngine::IgnoreKernelInTraces); in kCopy mode no kernel runs.
  static const void* Kernel() { return StreamCopyKernel(); }
  size_t chunk_bytes() const { return chunk_bytes_; }
  double launch_seconds() const { return launch_seconds_; }

 private:
  using Clock = std::chrono::steady_clock;
  ContentionGenerator() = default;
  Status Calibrate();
  // Enqueues one copy of `bytes` from d_src_ + offset to d_dst_ + offset with the configured
  // engine on stream_, checked (the launch's error, or cudaMemcpyAsync's).
  Status EnqueueCopy(size_t offset, size_t bytes);
  Status TimedCopy(size_t bytes, double* seconds);
  Status Loop();  // the thread's body

  int device_ = 0;
  ContentionConfig config_;
  StreamCopyShape shape_;
  void* d_src_ = nullptr;
  void* d_dst_ = nullptr;
  size_t buffer_bytes_ = 0;
  size_t chunk_bytes_ = 0;
  double launch_seconds_ = 0;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t timing_start_ = nullptr;
  cudaEvent_t timing_stop_ = nullptr;
  std::vector<cudaEvent_t> ring_;  // one per launch in flight, blocking-sync events

  std::thread thread_;
  std::mutex mu_;
  std::condition_variable wake_;  // with mu_: Stop ends an idle wait
  std::atomic<bool> stop_{false};
  bool stopped_ = false;  // owner thread only
  // Written by thread_ before it ends, read after join.
  Status error_;
  int64_t launches_ = 0;
  double busy_seconds_ = 0;
  Clock::time_point started_;
  Clock::time_point ended_;
  ContentionReport report_;  // owner thread, after the first Stop
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CONTENTION_CONTENTION_GENERATOR_H_
