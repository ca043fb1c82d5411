// memory.managed: the Family/Case classes. The timed region is not always one kernel. Setup
// writes the managed buffer on the host; before every sample Reset() (untimed) prefetches it back
// to host memory (cudaMemPrefetchAsync to the CPU, which also unmaps it from the GPU), so each
// sample starts with the data resident on the host, as after a host write, and Run() covers:
//   device            the kernel on a cudaMalloc buffer filled once (no migration: the ceiling)
//   managed           the kernel on the managed buffer: its page faults migrate the data
//   managed_advise    the same, the buffer advised cudaMemAdviseSetPreferredLocation = the device
//   managed_prefetch  cudaMemPrefetchAsync of the buffer to the device, then the kernel
// The managed buffer is bounded: at most a quarter of the device's free memory and of the
// host's available memory at Setup, else the point is skipped (FAILED_PRECONDITION).
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/core/point_params.h"
#include "kernels/core/variant_table.h"
#include "kernels/core/seeded_values.h"
#include "kernels/core/verify.h"
#include "kernels/memory/managed/managed_kernels.h"
#include "kernels/memory/managed/managed_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kDevice, kManaged, kAdvise, kPrefetch };

const VariantTable<Variant>& Variants() {
  static const auto& table = NewVariantTable<Variant>({
      {"device", Variant::kDevice},
      {"managed", Variant::kManaged},
      {"managed_advise", Variant::kAdvise},
      {"managed_prefetch", Variant::kPrefetch},
  });
  return table;
}

struct Config {
  std::string key;
  Variant variant = Variant::kPrefetch;
  int64_t n = 0;
  unsigned block = 256;
  unsigned grid = 1;
};

class ManagedCase : public Case {
 public:
  explicit ManagedCase(Config config) : c_(std::move(config)) {}
  ~ManagedCase() override { FreeDeviceBytes(managed_); }
  ManagedCase(const ManagedCase&) = delete;
  ManagedCase& operator=(const ManagedCase&) = delete;

  Status Setup(cudaStream_t stream) override {
    h_input_ = ManagedInput(c_.n, kSeed);
    RETURN_IF_ERROR(d_out_.Allocate(static_cast<size_t>(c_.n), c_.key + " output"));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    if (c_.variant == Variant::kDevice) {
      RETURN_IF_ERROR(d_data_.Allocate(static_cast<size_t>(c_.n), c_.key + " data"));
      RETURN_IF_ERROR(d_data_.CopyFromHost(h_input_));
    } else {
      RETURN_IF_ERROR(AllocateManaged());
    }
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  // Managed variants: the buffer goes back to host memory. (A host rewrite of the same values
  // would do too, but pulls the pages back through CPU page faults, far slower than the DMA, and
  // the kernel only reads the buffer, so its values need no restoring.)
  Status Reset(cudaStream_t stream) override {
    if (c_.variant == Variant::kDevice) return OkStatus();
    cudaMemLocation host{};
    host.type = cudaMemLocationTypeHost;
    CUDA_RETURN_IF_ERROR(cudaMemPrefetchAsync(managed_, Bytes(), host, 0, stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    if (c_.variant == Variant::kPrefetch) {
      CUDA_RETURN_IF_ERROR(cudaMemPrefetchAsync(managed_, Bytes(), DeviceLocation(), 0, stream));
    }
    const float* data = c_.variant == Variant::kDevice ? d_data_.get() : managed_;
    return LaunchManagedScale(data, d_out_.get(), c_.n, c_.grid, c_.block, stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_out_, ManagedReference(h_input_), c_.key, stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = ManagedScaleKernel();
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  // The kernel's n floats in and out; the migration is the cost being measured, not work.
  Work work() const override {
    Work w;
    w.bytes = 2.0 * sizeof(float) * static_cast<double>(c_.n);
    w.flops = static_cast<double>(c_.n);
    return w;
  }

 private:
  size_t Bytes() const { return static_cast<size_t>(c_.n) * sizeof(float); }

  cudaMemLocation DeviceLocation() const {
    cudaMemLocation location{};
    location.type = cudaMemLocationTypeDevice;
    location.id = device_;
    return location;
  }

  Status AllocateManaged() {
    CUDA_RETURN_IF_ERROR(cudaGetDevice(&device_));
    int managed_ok = 0;
    CUDA_RETURN_IF_ERROR(cudaDeviceGetAttribute(&managed_ok, cudaDevAttrManagedMemory, device_));
    if (!managed_ok) return FailedPreconditionError(c_.key + ": the device has no managed memory");
    size_t free_bytes = 0;
    size_t total_bytes = 0;
    CUDA_RETURN_IF_ERROR(cudaMemGetInfo(&free_bytes, &total_bytes));
    const double host_bytes =
        static_cast<double>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
    if (static_cast<double>(Bytes()) > 0.25 * static_cast<double>(free_bytes) ||
        static_cast<double>(Bytes()) > 0.25 * host_bytes) {
      return FailedPreconditionError(
          c_.key + ": a managed buffer of " + std::to_string(Bytes()) +
          " bytes exceeds a quarter of the device's free " + std::to_string(free_bytes) +
          " bytes or of the host's available " + std::to_string(static_cast<int64_t>(host_bytes)));
    }
    void* p = nullptr;
    CUDA_RETURN_IF_ERROR(cudaMallocManaged(&p, Bytes(), cudaMemAttachGlobal));
    managed_ = static_cast<float*>(p);
    std::memcpy(managed_, h_input_.data(), Bytes());  // written on the host
    if (c_.variant == Variant::kAdvise) {
      CUDA_RETURN_IF_ERROR(
          cudaMemAdvise(managed_, Bytes(), cudaMemAdviseSetPreferredLocation, DeviceLocation()));
    }
    return OkStatus();
  }

  Config c_;
  int device_ = 0;
  std::vector<float> h_input_;
  DeviceBuffer<float> d_data_;  // device only
  DeviceBuffer<float> d_out_;
  float* managed_ = nullptr;  // managed variants; freed with cudaFree
};

class ManagedFamily : public Family {
 public:
  std::string_view name() const override { return "memory.managed"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<Variant> p, ReadPoint1D(point, Variants()));
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * sizeof(float) * static_cast<double>(p.n), prop));
    ASSIGN_OR_RETURN(const Launch1D launch, ReadLaunch1D(point, p.n, 1, prop));
    Config c;
    c.key = p.key;
    c.variant = p.variant;
    c.n = p.n;
    c.block = launch.block;
    c.grid = launch.grid;
    return std::unique_ptr<Case>(std::make_unique<ManagedCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(ManagedFamily);

}  // namespace
}  // namespace warpwatch::kernels
