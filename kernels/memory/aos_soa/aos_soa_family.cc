// memory.aos_soa: variants, axes and launch on the in-place template (the particles are updated in
// place and x restored before every run). The kernels are in aos_soa_kernels.cu.
#include <memory>
#include <string>
#include <utility>

#include "kernels/core/family.h"
#include "kernels/core/in_place_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/core/seeded_fill.h"
#include "kernels/core/seeded_values.h"
#include "kernels/memory/aos_soa/aos_soa_kernels.h"
#include "kernels/memory/aos_soa/aos_soa_reference.h"

namespace warpwatch::kernels {
namespace {

const VariantTable<ParticleLayout>& Variants() {
  static const auto& table = NewVariantTable<ParticleLayout>({
      {"aos", ParticleLayout::kAos},
      {"aos_aligned", ParticleLayout::kAosAligned},
      {"soa", ParticleLayout::kSoa},
  });
  return table;
}

// Writes the seeded values of field f (see aos_soa_reference.h) into the n particles.
Status FillField(ParticleLayout layout, float* d_particles, int64_t n, int f, cudaStream_t stream) {
  const size_t count = static_cast<size_t>(n);
  if (layout == ParticleLayout::kSoa) {
    return FillSeededFloats(d_particles + f * count, count, kSeed + f, stream);
  }
  return FillSeededFloatsStrided(d_particles, count, kParticleFields, f, kSeed + f, stream);
}

class AosSoaFamily : public Family {
 public:
  std::string_view name() const override { return "memory.aos_soa"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<ParticleLayout> p, ReadPoint1D(point, Variants()));
    RETURN_IF_ERROR(CheckDeviceMemory(16.0 * static_cast<double>(p.n), prop));
    ASSIGN_OR_RETURN(const Launch1D launch, ReadLaunch1D(point, p.n, kParticlesPerThread, prop));
    const ParticleLayout layout = p.variant;
    const int64_t n = p.n;
    InPlaceSpec<float> s;
    s.key = p.key;
    s.name = "particles";
    s.count = static_cast<size_t>(n) * kParticleFields;
    s.fill = [layout, n](float* d, size_t, cudaStream_t stream) -> Status {
      for (int f = 0; f < kParticleFields; ++f) RETURN_IF_ERROR(FillField(layout, d, n, f, stream));
      return OkStatus();
    };
    // The update is in place: restore x (the only field written) outside the timed region.
    s.restore = [layout, n](float* d, size_t, cudaStream_t stream) {
      return FillField(layout, d, n, 0, stream);
    };
    s.run = [layout, n, launch](float* d, cudaStream_t stream) {
      return LaunchShiftX(layout, d, n, launch.grid, launch.block, stream);
    };
    s.reference = [layout, n] { return AosSoaReference(layout, n, kSeed); };
    s.shape = launch.ShapeOf(ShiftXKernel(layout));
    s.work.bytes = 2.0 * sizeof(float) * static_cast<double>(n);  // read and write x of each
    s.work.flops = static_cast<double>(n);
    return MakeInPlaceCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(AosSoaFamily);

}  // namespace
}  // namespace warpwatch::kernels
