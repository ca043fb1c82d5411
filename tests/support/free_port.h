// File: tests/support/free_port.h
// A loopback TCP port nobody listens on, for tests and benchmarks that start servers.
#ifndef WARPWATCH_TESTS_SUPPORT_FREE_PORT_H_
#define WARPWATCH_TESTS_SUPPORT_FREE_PORT_H_

#include "common/status/status.h"

namespace warpwatch::testing {

// A port the kernel just handed out on 127.0.0.1 and released. Another process may take it
// before the caller binds it: callers that can retry on EADDRINUSE should. INTERNAL (with errno's
// text) when no socket can be bound.
StatusOr<int> FreeLoopbackPort();

}  // namespace warpwatch::testing

#endif  // WARPWATCH_TESTS_SUPPORT_FREE_PORT_H_
