// File: server/runtime/served_methods.h
// The methods a warpwatch-server serves, by full name, so that what clients name (any string)
// can be told from what exists: the RPC metrics label a call by its method only when it is one
// of these (server/metrics/server_metrics.h).
#ifndef WARPWATCH_SERVER_RUNTIME_SERVED_METHODS_H_
#define WARPWATCH_SERVER_RUNTIME_SERVED_METHODS_H_

#include <set>
#include <string>

namespace warpwatch::server {

// "pkg.Service/Method" for every method of the warpwatch.v1 services (read from their proto
// descriptors, so a method added to a .proto is included), gRPC health and reflection.
std::set<std::string> ServedMethods();

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_RUNTIME_SERVED_METHODS_H_
