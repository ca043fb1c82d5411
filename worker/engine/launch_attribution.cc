// Attribution of the counter pass's launches to kernels.
#include "worker/engine/launch_attribution.h"

#include "common/catalog/catalog.h"
#include "worker/profiler/kernel_name.h"

namespace warpwatch::worker {
namespace {

// Index of the kernel of `m` that `name` names, trying the most exact spelling first (a short
// name is shared by overloads and by kernels of several namespaces); -1 when none does.
int FindKernel(const v1::Measurement& m, const std::string& name) {
  if (name.empty()) return -1;
  const std::string short_name = NameKernel(name).name;
  using Field = const std::string& (v1::KernelInfo::*)() const;
  for (Field field :
       {&v1::KernelInfo::mangled, &v1::KernelInfo::demangled, &v1::KernelInfo::name}) {
    for (int k = 0; k < m.kernels_size(); ++k) {
      if ((m.kernels(k).*field)() == name) return k;
    }
  }
  for (int k = 0; k < m.kernels_size(); ++k) {
    if (!m.kernels(k).name().empty() && m.kernels(k).name() == short_name) return k;
  }
  return -1;
}

int AddKernel(v1::Measurement* m, const std::string& name) {
  KernelName named = NameKernel(name);
  v1::KernelInfo* info = m->add_kernels();
  info->set_name(named.name);
  info->set_demangled(named.demangled);
  info->set_mangled(named.mangled);
  return m->kernels_size() - 1;
}

}  // namespace

void AttributeLaunchCounters(const std::vector<LaunchCounters>& launches,
                             const std::vector<std::string>& traced_launches, v1::Measurement* m) {
  m->clear_launches();
  m->clear_counters();
  for (v1::KernelInfo& k : *m->mutable_kernels()) k.clear_counters();
  const bool traced_fits = traced_launches.size() == launches.size();
  std::vector<int> launches_of(m->kernels_size(), 0);
  size_t unattributed = 0;
  for (size_t i = 0; i < launches.size(); ++i) {
    // A range name that names a listed kernel, else the traced launch at the same position, else
    // for the first launch the first kernel (LaunchShape's: the first one Run() launches).
    int k = FindKernel(*m, launches[i].range_name);
    if (k < 0 && traced_fits) k = FindKernel(*m, traced_launches[i]);
    if (k < 0 && traced_fits && !traced_launches[i].empty()) k = AddKernel(m, traced_launches[i]);
    if (k < 0 && i == 0 && m->kernels_size() > 0) k = 0;
    if (k < 0) ++unattributed;
    v1::KernelLaunch* launch = m->add_launches();
    launch->set_kernel(k);
    launch->mutable_counters()->insert(launches[i].values.begin(), launches[i].values.end());
    if (k < 0) continue;
    if (k >= static_cast<int>(launches_of.size())) launches_of.resize(k + 1, 0);
    if (launches_of[k]++ == 0) {
      m->mutable_kernels(k)->mutable_counters()->insert(launches[i].values.begin(),
                                                        launches[i].values.end());
    }
  }
  if (unattributed > 0) {
    m->set_counters_note(std::to_string(unattributed) + " of " + std::to_string(launches.size()) +
                         " kernel launches not attributed to a kernel: CUPTI names auto ranges by "
                         "index and no traced launch order lined up with them");
  }
  for (int k = 0; k < m->kernels_size(); ++k) {
    if (m->kernels(k).launches() == 0 && k < static_cast<int>(launches_of.size())) {
      m->mutable_kernels(k)->set_launches(launches_of[k]);
    }
  }
  if (launches.empty()) return;
  m->mutable_counters()->insert(launches[0].values.begin(), launches[0].values.end());
  if (!m->has_occupancy()) return;
  for (const v1::KernelLaunch& launch : m->launches()) {
    if (launch.kernel() != 0) continue;
    auto it = launch.counters().find(catalog::kAchievedOccupancyCounter);
    if (it != launch.counters().end()) m->mutable_occupancy()->set_achieved(it->second / 100.0);
    break;
  }
}

}  // namespace warpwatch::worker
