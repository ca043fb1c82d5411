// File: server/store/detail/pg_errors.cc
#include "server/store/detail/pg_errors.h"

#include <exception>
#include <pqxx/except>

namespace warpwatch::server::detail {

ClassifiedError ClassifyCurrentException(const std::string& what) {
  try {
    throw;
  } catch (const pqxx::in_doubt_error& e) {
    return {PgFailure::kConnection,
            UnavailableError(what + ": commit in doubt, the connection broke: " + e.what())};
  } catch (const pqxx::broken_connection& e) {
    return {PgFailure::kConnection, UnavailableError(what + ": database unreachable: " + e.what())};
  } catch (const pqxx::transaction_rollback& e) {
    return {PgFailure::kRetryable, AbortedError(what + ": " + e.what())};
  } catch (const pqxx::sql_error& e) {
    const std::string state = e.sqlstate();
    // Class 08: connection exception; 57P01-57P03: admin/crash shutdown, cannot connect now.
    if (state.rfind("08", 0) == 0 || state == "57P01" || state == "57P02" || state == "57P03") {
      return {PgFailure::kConnection,
              UnavailableError(what + ": database unavailable: " + e.what())};
    }
    if (state == "57014") {
      return {PgFailure::kOther, DeadlineExceededError(what + ": statement timeout: " + e.what())};
    }
    if (state == "40001" || state == "40P01") {
      return {PgFailure::kRetryable, AbortedError(what + ": " + e.what())};
    }
    return {PgFailure::kOther, InternalError(what + ": SQL error " + state + ": " + e.what())};
  } catch (const std::exception& e) {
    return {PgFailure::kOther, InternalError(what + ": " + e.what())};
  } catch (...) {
    return {PgFailure::kOther, InternalError(what + ": unknown exception")};
  }
}

}  // namespace warpwatch::server::detail
