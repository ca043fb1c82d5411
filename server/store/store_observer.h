// File: server/store/store_observer.h
// What the PostgreSQL store tells the outside about its own health, for metrics: errors it
// returned and how many pooled connections are in use. Kept apart from Store so the store needs
// no metrics library and tests can count events with a fake.
#ifndef WARPWATCH_SERVER_STORE_STORE_OBSERVER_H_
#define WARPWATCH_SERVER_STORE_STORE_OBSERVER_H_

#include <string>

namespace warpwatch::server {

// Why a store operation failed at the database (Status values a store method returns for a
// caller's mistake, NOT_FOUND and the like, are not database errors and are not reported).
enum class DatabaseErrorKind {
  kUnavailable,  // no connection: the database is unreachable or the pool had none free in time
  kConnection,   // the connection broke during the operation
  kQuery,  // the database refused a statement (constraint, timeout, serialization after retries)
};

// "unavailable", "connection", "query".
const char* DatabaseErrorKindName(DatabaseErrorKind kind);

// Implementations must be thread-safe and fast: they are called on the store's callers' threads,
// never under the pool's lock, once per event.
class StoreObserver {
 public:
  virtual ~StoreObserver() = default;
  // A store operation (`operation` is the store method's name, e.g. "ClaimJob") returned a
  // database error, after its own retries.
  virtual void OnDatabaseError(const std::string& operation, DatabaseErrorKind kind) = 0;
  // The pool's connections changed: `in_use` borrowed (or being opened), `idle` kept open and
  // free, at most `max_size` together.
  virtual void OnPoolUse(int in_use, int idle, int max_size) = 0;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_STORE_OBSERVER_H_
