// File: server/store/detail/pg_errors.h
// libpqxx exceptions -> Status, at the store's edge.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_PG_ERRORS_H_
#define WARPWATCH_SERVER_STORE_DETAIL_PG_ERRORS_H_

#include <string>

#include "common/status/status.h"

namespace warpwatch::server::detail {

// How the exception being handled should be treated.
enum class PgFailure {
  kConnection,  // connection lost or database shutting down/starting: UNAVAILABLE
  kRetryable,   // serialization failure or deadlock: ABORTED, worth retrying
  kOther,       // anything else
};

struct ClassifiedError {
  PgFailure kind;
  Status status;
};

// Must be called inside a catch block; classifies std::current_exception(). `what` names the
// operation ("ClaimJob") and prefixes the message. Statement timeouts map to DEADLINE_EXCEEDED,
// a commit whose outcome is unknown to UNAVAILABLE ("in doubt"), other SQL errors to INTERNAL with
// the server's message.
ClassifiedError ClassifyCurrentException(const std::string& what);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_PG_ERRORS_H_
