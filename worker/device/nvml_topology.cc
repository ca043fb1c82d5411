// NVML reads of the node's NVLinks and PCIe paths, joined by gpu_links.cc.
#include "worker/device/nvml_topology.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "worker/device/gpu_links.h"
#include "worker/device/uuid_format.h"

namespace warpwatch::worker {
namespace {

// nvml.h's ABI for the calls below (the build machines have no nvml.h: see detail/nvml_api.h).
typedef struct nvmlDevice_st* nvmlDevice_t;
typedef int nvmlReturn_t;
constexpr nvmlReturn_t kSuccess = 0;
constexpr unsigned kMaxLinks = 18;  // NVML_NVLINK_MAX_LINKS
struct nvmlPciInfo_t {
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];
};

struct Api {
  void* lib = nullptr;
  nvmlReturn_t (*init)() = nullptr;
  nvmlReturn_t (*shutdown)() = nullptr;
  nvmlReturn_t (*by_uuid)(const char*, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*link_state)(nvmlDevice_t, unsigned, int*) = nullptr;
  nvmlReturn_t (*link_version)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
  nvmlReturn_t (*remote_pci)(nvmlDevice_t, unsigned, nvmlPciInfo_t*) = nullptr;
  nvmlReturn_t (*remote_type)(nvmlDevice_t, unsigned, int*) = nullptr;
  nvmlReturn_t (*ancestor)(nvmlDevice_t, nvmlDevice_t, int*) = nullptr;
};

template <typename Fn>
bool Resolve(void* lib, const char* name, Fn* out) {
  *out = reinterpret_cast<Fn>(::dlsym(lib, name));
  return *out != nullptr;
}

void Note(v1::RunEnvironment* env, const std::string& what) {
  std::string note = env->topology_note();
  if (!note.empty()) note += "; ";
  env->set_topology_note(note + what);
}

GpuObservation Observe(const Api& api, nvmlDevice_t handle, int ordinal, const std::string& uuid,
                       const cudaDeviceProp& prop) {
  GpuObservation g;
  g.ordinal = ordinal;
  g.uuid = uuid;
  g.pci.domain = static_cast<unsigned>(prop.pciDomainID);
  g.pci.bus = static_cast<unsigned>(prop.pciBusID);
  g.pci.device = static_cast<unsigned>(prop.pciDeviceID);
  for (unsigned link = 0; link < kMaxLinks; ++link) {
    int state = 0;
    // Links past the GPU's count answer INVALID_ARGUMENT or NOT_SUPPORTED: they do not exist.
    if (api.link_state(handle, link, &state) != kSuccess) continue;
    LinkObservation l;
    l.active = state != 0;
    if (l.active) {
      int type = 0xFF;
      if (api.remote_type != nullptr && api.remote_type(handle, link, &type) == kSuccess) {
        l.remote = static_cast<NvLinkRemote>(type);
      }
      nvmlPciInfo_t pci{};
      if (api.remote_pci(handle, link, &pci) == kSuccess) {
        l.remote_pci.domain = pci.domain;
        l.remote_pci.bus = pci.bus;
        l.remote_pci.device = pci.device;
        // Older drivers without RemoteDeviceType: a remote at a GPU's address is that GPU.
      }
      unsigned version = 0;
      if (api.link_version != nullptr && api.link_version(handle, link, &version) == kSuccess) {
        l.version = NvLinkGenerationFromNvml(version);
      }
    }
    g.links.push_back(l);
  }
  return g;
}

}  // namespace

void AddNodeTopology(v1::RunEnvironment* env) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    Note(env, "cudaGetDeviceCount failed: no topology");
    return;
  }
  if (count < 2) return;
  Api api;
  api.lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (api.lib == nullptr) {
    Note(env, "libnvidia-ml.so.1 not loadable: no GPU topology");
    return;
  }
  const bool all = Resolve(api.lib, "nvmlInit_v2", &api.init) &&
                   Resolve(api.lib, "nvmlShutdown", &api.shutdown) &&
                   Resolve(api.lib, "nvmlDeviceGetHandleByUUID", &api.by_uuid) &&
                   Resolve(api.lib, "nvmlDeviceGetNvLinkState", &api.link_state) &&
                   Resolve(api.lib, "nvmlDeviceGetNvLinkRemotePciInfo_v2", &api.remote_pci) &&
                   Resolve(api.lib, "nvmlDeviceGetTopologyCommonAncestor", &api.ancestor);
  Resolve(api.lib, "nvmlDeviceGetNvLinkVersion", &api.link_version);
  Resolve(api.lib, "nvmlDeviceGetNvLinkRemoteDeviceType", &api.remote_type);
  if (!all || api.init() != kSuccess) {
    Note(env, "NVML lacks the NVLink/topology calls or did not initialise: no GPU topology");
    ::dlclose(api.lib);
    return;
  }
  std::vector<GpuObservation> gpus;
  std::vector<nvmlDevice_t> handles;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, ordinal) != cudaSuccess) {
      (void)cudaGetLastError();
      Note(env, "cudaGetDeviceProperties(" + std::to_string(ordinal) + ") failed");
      continue;
    }
    const std::string uuid =
        FormatGpuUuid(reinterpret_cast<const unsigned char*>(prop.uuid.bytes));
    nvmlDevice_t handle = nullptr;
    if (api.by_uuid(uuid.c_str(), &handle) != kSuccess) {
      Note(env, "NVML has no GPU " + uuid);
      continue;
    }
    gpus.push_back(Observe(api, handle, ordinal, uuid, prop));
    handles.push_back(handle);
  }
  std::map<std::pair<int, int>, int> levels;
  for (size_t i = 0; i < gpus.size(); ++i) {
    for (size_t j = i + 1; j < gpus.size(); ++j) {
      int level = -1;
      if (api.ancestor(handles[i], handles[j], &level) == kSuccess) {
        levels[{gpus[i].ordinal, gpus[j].ordinal}] = level;
      }
    }
  }
  // A driver without RemoteDeviceType: a remote at another GPU's address is that GPU.
  if (api.remote_type == nullptr) {
    for (GpuObservation& g : gpus) {
      for (LinkObservation& l : g.links) {
        for (const GpuObservation& other : gpus) {
          if (l.active && l.remote_pci == other.pci) l.remote = NvLinkRemote::kGpu;
        }
      }
    }
  }
  for (v1::GpuLink& link : JoinGpuLinks(gpus, levels)) *env->add_gpu_links() = std::move(link);
  api.shutdown();
  ::dlclose(api.lib);
}

}  // namespace warpwatch::worker
