// File: common/net/local_target.h
// Whether a gRPC target names this host only, so that what is sent to it in plaintext never
// crosses a network: the worker (and the CLI) refuse to send a bearer token without TLS elsewhere.
#ifndef WARPWATCH_COMMON_NET_LOCAL_TARGET_H_
#define WARPWATCH_COMMON_NET_LOCAL_TARGET_H_

#include <string>

namespace warpwatch {

// True for unix sockets ("unix:", "unix-abstract:") and for targets whose every address is a
// loopback one: "localhost", 127.0.0.0/8 or ::1, written as host:port, [::1]:port, "dns:"
// or "dns:///" with such a host, or "ipv4:"/"ipv6:" lists of such addresses. False for anything
// else, including names that may resolve to loopback (only "localhost" is trusted by name).
bool IsLocalTarget(const std::string& target);

}  // namespace warpwatch

#endif  // WARPWATCH_COMMON_NET_LOCAL_TARGET_H_
