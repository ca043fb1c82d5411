// The process-wide registry of family implementations.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

#include "kernels/core/family.h"

namespace warpwatch::kernels {
namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, std::unique_ptr<Family>, std::less<>> families;  // guarded by mu
};

Registry& TheRegistry() {
  static Registry* registry = new Registry();  // never destroyed: used during static init/exit
  return *registry;
}

}  // namespace

void RegisterFamily(std::unique_ptr<Family> family) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::string name(family->name());
  if (catalog::FindFamily(name) == nullptr) {
    std::fprintf(stderr, "warpwatch: family implementation \"%s\" is not in the catalog\n",
                 name.c_str());
    std::abort();
  }
  if (!r.families.emplace(name, std::move(family)).second) {
    std::fprintf(stderr, "warpwatch: family \"%s\" registered twice\n", name.c_str());
    std::abort();
  }
}

const Family* FindImplementation(std::string_view name) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.families.find(name);
  return it == r.families.end() ? nullptr : it->second.get();
}

std::vector<std::string> ImplementedFamilies() {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> names;
  for (const auto& [name, family] : r.families) names.push_back(name);
  return names;
}

}  // namespace warpwatch::kernels
