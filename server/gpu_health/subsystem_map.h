// File: server/gpu_health/subsystem_map.h
// The one table of which GPU subsystem each family of the suite stresses (docs/gpu_health.md,
// "Fingerprint"): a GPU slower than its peers on the families of one subsystem names that
// subsystem as sick.
#ifndef WARPWATCH_SERVER_GPU_HEALTH_SUBSYSTEM_MAP_H_
#define WARPWATCH_SERVER_GPU_HEALTH_SUBSYSTEM_MAP_H_

#include <string_view>
#include <vector>

#include "warpwatch/v1/gpu_health.pb.h"

namespace warpwatch::server::gpu_health {

struct FamilySubsystem {
  std::string_view family;
  v1::GpuSubsystem subsystem;
  std::string_view why;  // what of the family's timing the subsystem sets
};

// Every family of the suite (docs/kernel-suite), each once.
const std::vector<FamilySubsystem>& FamilySubsystems();

// The subsystem `family` stresses; GPU_SUBSYSTEM_UNSPECIFIED for a family not in the table
// (a family added to the suite later counts towards no subsystem until it is mapped).
v1::GpuSubsystem SubsystemOfFamily(std::string_view family);

// "HBM bandwidth", "L2 cache", ... as the fingerprint prints them.
std::string_view SubsystemName(v1::GpuSubsystem subsystem);

}  // namespace warpwatch::server::gpu_health

#endif  // WARPWATCH_SERVER_GPU_HEALTH_SUBSYSTEM_MAP_H_
