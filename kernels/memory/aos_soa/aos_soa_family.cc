// memory.aos_soa: the Family/Case classes (axes, launch configuration, input restore,
// verification). The kernels are in aos_soa_kernels.cu.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/seeded_fill.h"
#include "kernels/core/seeded_values.h"
#include "kernels/core/verify.h"
#include "kernels/memory/aos_soa/aos_soa_kernels.h"
#include "kernels/memory/aos_soa/aos_soa_reference.h"

namespace warpwatch::kernels {
namespace {

const std::vector<std::pair<std::string_view, ParticleLayout>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, ParticleLayout>>{
      {"aos", ParticleLayout::kAos},
      {"aos_aligned", ParticleLayout::kAosAligned},
      {"soa", ParticleLayout::kSoa},
  };
  return *table;
}

struct Config {
  std::string key;
  ParticleLayout layout = ParticleLayout::kSoa;
  int64_t n = 0;
  unsigned block = 256;
  unsigned grid = 1;
};

class AosSoaCase : public Case {
 public:
  explicit AosSoaCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(d_particles_.Allocate(static_cast<size_t>(c_.n) * kParticleFields,
                                          c_.key + " particles"));
    for (int f = 0; f < kParticleFields; ++f) RETURN_IF_ERROR(FillField(f, stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchShiftX(c_.layout, d_particles_.get(), c_.n, c_.grid, c_.block, stream);
  }

  // The update is in place: restore x (the only field written) outside the timed region.
  Status Reset(cudaStream_t stream) override { return FillField(0, stream); }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_particles_, AosSoaReference(c_.layout, c_.n, kSeed), c_.key,
                              stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = ShiftXKernel(c_.layout);
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  // Useful work: read and write x of every particle.
  Work work() const override {
    Work w;
    w.bytes = 2.0 * sizeof(float) * static_cast<double>(c_.n);
    w.flops = static_cast<double>(c_.n);
    return w;
  }

 private:
  // Writes the seeded values of field f (see aos_soa_reference.h) into the particle buffer.
  Status FillField(int f, cudaStream_t stream) {
    const size_t n = static_cast<size_t>(c_.n);
    if (c_.layout == ParticleLayout::kSoa) {
      return FillSeededFloats(d_particles_.get() + f * n, n, kSeed + f, stream);
    }
    return FillSeededFloatsStrided(d_particles_.get(), n, kParticleFields, f, kSeed + f, stream);
  }

  Config c_;
  DeviceBuffer<float> d_particles_;
};

class AosSoaFamily : public Family {
 public:
  std::string_view name() const override { return "memory.aos_soa"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.layout, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    RETURN_IF_ERROR(CheckDeviceMemory(16.0 * static_cast<double>(c.n), prop));
    ASSIGN_OR_RETURN(int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    c.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(c.grid, GridFor(c.n, block * kParticlesPerThread, prop));
    return std::unique_ptr<Case>(std::make_unique<AosSoaCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(AosSoaFamily);

}  // namespace
}  // namespace warpwatch::kernels
