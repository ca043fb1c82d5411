// File: common/net/local_target.cc
#include "common/net/local_target.h"

#include <sstream>

namespace warpwatch {
namespace {

// The host of "host:port", "[v6]:port", "host" or "[v6]".
std::string HostOf(const std::string& address) {
  if (!address.empty() && address[0] == '[') {
    const size_t close = address.find(']');
    return close == std::string::npos ? "" : address.substr(1, close - 1);
  }
  const size_t colon = address.find(':');
  if (colon != std::string::npos && address.find(':', colon + 1) != std::string::npos) {
    return address;  // a bare IPv6 address
  }
  return colon == std::string::npos ? address : address.substr(0, colon);
}

bool IsLoopbackHost(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

}  // namespace

bool IsLocalTarget(const std::string& target) {
  if (StartsWith(target, "unix:") || StartsWith(target, "unix-abstract:")) return true;
  std::string rest = target;
  if (StartsWith(rest, "ipv4:") || StartsWith(rest, "ipv6:")) {
    rest = rest.substr(5);
    std::istringstream addresses(rest);
    bool any = false;
    for (std::string address; std::getline(addresses, address, ',');) {
      if (!IsLoopbackHost(HostOf(address))) return false;
      any = true;
    }
    return any;
  }
  if (StartsWith(rest, "dns:///")) {
    rest = rest.substr(7);
  } else if (StartsWith(rest, "dns:")) {
    rest = rest.substr(4);
  }
  return IsLoopbackHost(HostOf(rest));
}

}  // namespace warpwatch
