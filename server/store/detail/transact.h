// File: server/store/detail/transact.h
// Runs one unit of store work in a transaction on a pooled connection, with the error handling
// every store method shares: exceptions -> Status, broken connections dropped, safe retries.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_TRANSACT_H_
#define WARPWATCH_SERVER_STORE_DETAIL_TRANSACT_H_

#include <pqxx/transaction>
#include <string>
#include <utility>

#include "common/status/status.h"
#include "server/store/detail/connection_pool.h"
#include "server/store/detail/pg_errors.h"

namespace warpwatch::server::detail {

inline constexpr int kMaxSerializationRetries = 3;

// Calls fn(pqxx::work&) -> StatusOr<T> and commits when it returns a value; a non-OK Status from fn
// rolls back and is returned as is. Retried (fn must be safe to run again, as a transaction is):
// serialization failures and deadlocks up to kMaxSerializationRetries times, and once when a
// connection taken from the idle pool turns out to be dead before commit. Never retried: a
// commit in doubt. `what` names the operation in error messages.
template <typename T, typename Fn>
StatusOr<T> Transact(ConnectionPool& pool, const std::string& what, Fn&& fn) {
  int serialization_retries = 0;
  bool connection_retried = false;
  while (true) {
    StatusOr<ConnectionPool::Handle> handle = pool.Acquire();
    if (!handle.ok()) {
      if (pool.observer() != nullptr) {
        pool.observer()->OnDatabaseError(what, DatabaseErrorKind::kUnavailable);
      }
      return handle.status().Annotate(what);
    }
    const bool reused = handle->reused();
    bool committing = false;
    try {
      pqxx::work tx(handle->conn());
      StatusOr<T> result = fn(tx);
      if (!result.ok()) return result.status();  // tx rolls back
      committing = true;
      tx.commit();
      return result;
    } catch (...) {
      ClassifiedError error = ClassifyCurrentException(what);
      if (error.kind == PgFailure::kConnection) {
        handle->MarkBroken();
        pool.DropIdle();
        if (reused && !committing && !connection_retried) {
          connection_retried = true;
          continue;
        }
      } else if (error.kind == PgFailure::kRetryable &&
                 serialization_retries < kMaxSerializationRetries) {
        ++serialization_retries;
        continue;
      }
      if (pool.observer() != nullptr) {
        pool.observer()->OnDatabaseError(what, error.kind == PgFailure::kConnection
                                                   ? DatabaseErrorKind::kConnection
                                                   : DatabaseErrorKind::kQuery);
      }
      return error.status;
    }
  }
}

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_TRANSACT_H_
