// File: server/logging/logging.h
// Structured logs: every line is "ts=... level=... msg=\"...\" key=value ...", UTC, on stderr.
// Callers write the msg/key=value part themselves through spdlog.
#ifndef WARPWATCH_SERVER_LOGGING_LOGGING_H_
#define WARPWATCH_SERVER_LOGGING_LOGGING_H_

#include <string>
#include <string_view>

namespace warpwatch::server {

// Installs the key=value pattern on spdlog's default logger and sets its level ("info" ...).
// Call once at start, before other threads log.
void ConfigureLogging(const std::string& level);

// `value` made safe inside a quoted log field: backslash, quote, \n, \r and \t escaped, other
// control characters as \xNN, so text a client sent can neither end a log line nor forge one.
// Every client-supplied string a log line carries goes through this, inside quotes.
std::string LogEscape(std::string_view value);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_LOGGING_LOGGING_H_
