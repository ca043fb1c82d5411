// File: server/schedule/time_zone.cc
#include "server/schedule/time_zone.h"

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>

namespace warpwatch::server::schedule {
namespace {

std::mutex known_mu;
std::set<std::string>* known = nullptr;  // guarded by known_mu; names whose zone file was read

bool SafeRelativeName(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.find("..") != std::string::npos) return false;
  return name.find('\0') == std::string::npos && name.find('\\') == std::string::npos;
}

// A compiled zone file starts with the magic "TZif" (RFC 8536, section 3.1).
bool IsZoneFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, sizeof magic) && std::string(magic, sizeof magic) == "TZif";
}

}  // namespace

std::string TimeZoneDirectory() {
  const char* dir = std::getenv("TZDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/usr/share/zoneinfo";
}

bool LoadKnownTimeZone(const std::string& name, absl::TimeZone* zone) {
  if (name == "UTC") {
    *zone = absl::UTCTimeZone();
    return true;
  }
  if (!SafeRelativeName(name)) return false;
  bool seen = false;
  {
    std::lock_guard<std::mutex> lock(known_mu);
    seen = known != nullptr && known->count(name) > 0;
  }
  if (!seen) {
    if (!IsZoneFile(TimeZoneDirectory() + "/" + name)) return false;
    std::lock_guard<std::mutex> lock(known_mu);
    if (known == nullptr) known = new std::set<std::string>();  // never freed, like absl's cache
    known->insert(name);
  }
  return absl::LoadTimeZone(name, zone);
}

}  // namespace warpwatch::server::schedule
