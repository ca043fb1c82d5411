// concurrency.streams (guide 5.2.1, 5.2.2): the Family/Case classes. What a sample's time covers:
// pipelines, from the engine's start event to its end event: n floats copied host (pinned) to
// device, the kernel, and the results copied back, either in the engine's stream one after the
// other or split in `streams` chunks, each chunk's copy-kernel-copy in a stream of its own
// (forked from and joined back to the engine's stream by events, so both events bracket all of
// it). Small kernels: `streams` kernels over n / streams elements each, launched with only
// ceil(SMs / streams) blocks (each alone leaves most SMs idle), one after another in the engine's
// stream or one per stream. The report's overlap figure is HiddenFraction(serial, streamed).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/concurrency/streams/streams_kernels.h"
#include "kernels/concurrency/streams/streams_reference.h"
#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/variant_table.h"
#include "kernels/core/verify.h"
#include "kernels/core/seeded_fill.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kSerialPipeline, kStreamedPipeline, kSerialSmall, kConcurrentSmall };

const VariantTable<Variant>& Variants() {
  static const auto& table = NewVariantTable<Variant>({
      {"serial_pipeline", Variant::kSerialPipeline},
      {"streamed_pipeline", Variant::kStreamedPipeline},
      {"serial_small_kernels", Variant::kSerialSmall},
      {"concurrent_small_kernels", Variant::kConcurrentSmall},
  });
  return table;
}

bool IsPipeline(Variant v) {
  return v == Variant::kSerialPipeline || v == Variant::kStreamedPipeline;
}

// Elements whose results Verify compares.
constexpr int64_t kSampled = 4096;

struct Config {
  std::string key;
  Variant variant = Variant::kSerialPipeline;
  int64_t n = 0;
  unsigned block = 256;
  int streams = 1;
  unsigned pipeline_grid = 1;  // blocks of the pipeline's kernel per chunk (enough to fill)
  unsigned small_grid = 1;     // blocks of one small kernel
};

class StreamsCase : public Case {
 public:
  explicit StreamsCase(Config config) : c_(std::move(config)) {}

  ~StreamsCase() override {
    for (cudaEvent_t e : joins_) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(e));
    if (fork_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(fork_));
    for (cudaStream_t s : streams_) CUDA_CHECK_NOEXCEPT(cudaStreamDestroy(s));
    if (h_in_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaFreeHost(h_in_));
    if (h_out_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaFreeHost(h_out_));
  }

  Status Setup(cudaStream_t stream) override {
    const size_t n = static_cast<size_t>(c_.n);
    RETURN_IF_ERROR(d_in_.Allocate(n, c_.key + " device input"));
    RETURN_IF_ERROR(d_out_.Allocate(n, c_.key + " device output"));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    if (IsPipeline(c_.variant)) {
      CUDA_RETURN_IF_ERROR(cudaMallocHost(reinterpret_cast<void**>(&h_in_), n * sizeof(float)));
      CUDA_RETURN_IF_ERROR(cudaMallocHost(reinterpret_cast<void**>(&h_out_), n * sizeof(float)));
      for (size_t i = 0; i < n; ++i) h_in_[i] = SeededFloat(kSeed, i);
    } else {
      RETURN_IF_ERROR(FillSeededFloats(d_in_.get(), n, kSeed, stream));
    }
    CUDA_RETURN_IF_ERROR(cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming));
    for (int k = 0; k < c_.streams; ++k) {
      cudaStream_t s = nullptr;
      CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      streams_.push_back(s);
      cudaEvent_t e = nullptr;
      CUDA_RETURN_IF_ERROR(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      joins_.push_back(e);
    }
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  // Clears what Verify reads (the sampled results), so a run that delivers nothing fails.
  Status Reset(cudaStream_t stream) override {
    if (IsPipeline(c_.variant)) {
      for (int64_t i : Sampled()) h_out_[i] = 0;
    } else {
      CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    }
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    const bool split =
        c_.variant == Variant::kStreamedPipeline || c_.variant == Variant::kConcurrentSmall;
    if (split) {
      CUDA_RETURN_IF_ERROR(cudaEventRecord(fork_, stream));
      for (cudaStream_t s : streams_) CUDA_RETURN_IF_ERROR(cudaStreamWaitEvent(s, fork_, 0));
    }
    if (c_.variant == Variant::kSerialPipeline) {
      RETURN_IF_ERROR(Chunk(0, c_.n, c_.pipeline_grid, stream));
    } else {
      for (int k = 0; k < c_.streams; ++k) {
        int64_t begin = 0;
        int64_t end = 0;
        ChunkRange(c_.n, c_.streams, k, &begin, &end);
        if (begin == end) continue;
        RETURN_IF_ERROR(Chunk(begin, end, IsPipeline(c_.variant) ? c_.pipeline_grid : c_.small_grid,
                              split ? streams_[k] : stream));
      }
    }
    if (split) {
      for (int k = 0; k < c_.streams; ++k) {
        CUDA_RETURN_IF_ERROR(cudaEventRecord(joins_[k], streams_[k]));
        CUDA_RETURN_IF_ERROR(cudaStreamWaitEvent(stream, joins_[k], 0));
      }
    }
    return OkStatus();
  }

  // A sample of the output (the pipeline's host mirror, else the device output) against the CPU
  // reference, compared exactly (verify.h).
  VerifyResult Verify(cudaStream_t stream) override {
    std::vector<float> device_out;
    if (IsPipeline(c_.variant)) {
      const cudaError_t err = cudaStreamSynchronize(stream);
      if (err != cudaSuccess) {
        VerifyResult failed;
        failed.status = CudaError(err, "cudaStreamSynchronize(stream)", __FILE__, __LINE__);
        return failed;
      }
    } else {
      StatusOr<std::vector<float>> got = DownloadAfter(d_out_, d_out_.size(), c_.key, stream);
      if (!got.ok()) {
        VerifyResult failed;
        failed.status = got.status();
        return failed;
      }
      device_out = std::move(got).value();
    }
    const int iterations = IsPipeline(c_.variant) ? kPipelineIterations : kSmallKernelIterations;
    std::vector<float> expected;
    std::vector<float> actual;
    for (int64_t i : Sampled()) {
      expected.push_back(StreamWorkReference(kSeed, i, iterations));
      actual.push_back(IsPipeline(c_.variant) ? h_out_[i] : device_out[i]);
    }
    return CompareExact(expected, actual, c_.key + " (sampled; indices count within the sample)");
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = StreamWorkKernel();
    shape.grid = dim3(IsPipeline(c_.variant) ? c_.pipeline_grid : c_.small_grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  // Pipelines: the bytes over the host link (in and out); small kernels: device memory traffic.
  Work work() const override {
    Work w;
    const double n = static_cast<double>(c_.n);
    w.bytes = 2.0 * sizeof(float) * n;
    w.flops = 2.0 * n * (IsPipeline(c_.variant) ? kPipelineIterations : kSmallKernelIterations);
    return w;
  }

 private:
  // One chunk's work on `s`: for pipelines copy in, kernel, copy out; else the kernel alone.
  Status Chunk(int64_t begin, int64_t end, unsigned grid, cudaStream_t s) {
    const int64_t count = end - begin;
    const size_t bytes = static_cast<size_t>(count) * sizeof(float);
    if (IsPipeline(c_.variant)) {
      CUDA_RETURN_IF_ERROR(
          cudaMemcpyAsync(d_in_.get() + begin, h_in_ + begin, bytes, cudaMemcpyHostToDevice, s));
      RETURN_IF_ERROR(LaunchStreamWork(d_in_.get() + begin, d_out_.get() + begin, count,
                                       kPipelineIterations, grid, c_.block, s));
      CUDA_RETURN_IF_ERROR(
          cudaMemcpyAsync(h_out_ + begin, d_out_.get() + begin, bytes, cudaMemcpyDeviceToHost, s));
      return OkStatus();
    }
    return LaunchStreamWork(d_in_.get() + begin, d_out_.get() + begin, count,
                            kSmallKernelIterations, grid, c_.block, s);
  }

  std::vector<int64_t> Sampled() const {
    std::vector<int64_t> idx;
    const int64_t count = std::min(kSampled, c_.n);
    for (int64_t k = 0; k < count; ++k) idx.push_back(k * c_.n / count);
    idx.push_back(c_.n - 1);
    return idx;
  }

  Config c_;
  DeviceBuffer<float> d_in_;
  DeviceBuffer<float> d_out_;
  float* h_in_ = nullptr;   // pinned (pipelines)
  float* h_out_ = nullptr;  // pinned (pipelines)
  cudaEvent_t fork_ = nullptr;
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> joins_;
};

class StreamsFamily : public Family {
 public:
  std::string_view name() const override { return "concurrency.streams"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.variant, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    ASSIGN_OR_RETURN(const int64_t streams, AxisValue(point, "streams"));
    if (streams > 64) return InvalidArgumentError(c.key + ": at most 64 streams");
    c.streams = static_cast<int>(streams);
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    c.block = static_cast<unsigned>(block);
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * sizeof(float) * static_cast<double>(c.n), prop));
    if (IsPipeline(c.variant) && 2.0 * sizeof(float) * static_cast<double>(c.n) > (1u << 30)) {
      return FailedPreconditionError(c.key + ": more than 1 GiB of pinned host memory");
    }
    const int64_t chunk = CeilDiv(c.n, c.streams);
    c.pipeline_grid = GridStrideBlocks(chunk, block, 4, prop.multiProcessorCount);
    c.small_grid =
        static_cast<unsigned>(std::max<int64_t>(1, CeilDiv(prop.multiProcessorCount, c.streams)));
    return std::unique_ptr<Case>(std::make_unique<StreamsCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(StreamsFamily);

}  // namespace
}  // namespace warpwatch::kernels
