// Status and StatusOr<T>: errors as values inside warpwatch. Codes mirror gRPC's so the RPC edge
// converts without a table (grpc::StatusCode(static_cast<int>(code))).
#ifndef WARPWATCH_COMMON_STATUS_STATUS_H_
#define WARPWATCH_COMMON_STATUS_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace warpwatch {

// Same numbering as grpc::StatusCode and absl::StatusCode.
enum class StatusCode : int {
  kOk = 0,
  kCancelled = 1,
  kUnknown = 2,
  kInvalidArgument = 3,
  kDeadlineExceeded = 4,
  kNotFound = 5,
  kAlreadyExists = 6,
  kPermissionDenied = 7,
  kResourceExhausted = 8,
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
  kDataLoss = 15,
  kUnauthenticated = 16,
};

// Name of a code as gRPC spells it ("INVALID_ARGUMENT").
const char* StatusCodeName(StatusCode code);

// An error code with a message, or OK. Cheap to copy; immutable.
class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "INVALID_ARGUMENT: spec.families: empty"
  std::string ToString() const;
  // A copy whose message is "prefix: message"; OK stays OK.
  Status Annotate(const std::string& prefix) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status OkStatus() { return Status(); }
inline Status InvalidArgumentError(std::string m) {
  return Status(StatusCode::kInvalidArgument, std::move(m));
}
inline Status NotFoundError(std::string m) { return Status(StatusCode::kNotFound, std::move(m)); }
inline Status FailedPreconditionError(std::string m) {
  return Status(StatusCode::kFailedPrecondition, std::move(m));
}
inline Status UnavailableError(std::string m) {
  return Status(StatusCode::kUnavailable, std::move(m));
}
inline Status InternalError(std::string m) { return Status(StatusCode::kInternal, std::move(m)); }
inline Status UnimplementedError(std::string m) {
  return Status(StatusCode::kUnimplemented, std::move(m));
}
inline Status PermissionDeniedError(std::string m) {
  return Status(StatusCode::kPermissionDenied, std::move(m));
}
inline Status UnauthenticatedError(std::string m) {
  return Status(StatusCode::kUnauthenticated, std::move(m));
}
inline Status ResourceExhaustedError(std::string m) {
  return Status(StatusCode::kResourceExhausted, std::move(m));
}
inline Status AlreadyExistsError(std::string m) {
  return Status(StatusCode::kAlreadyExists, std::move(m));
}
inline Status DeadlineExceededError(std::string m) {
  return Status(StatusCode::kDeadlineExceeded, std::move(m));
}
inline Status AbortedError(std::string m) { return Status(StatusCode::kAborted, std::move(m)); }

// Either a value or a non-OK Status. Constructing from an OK Status is a programming error.
template <typename T>
class StatusOr {
 public:
  StatusOr(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT
  StatusOr(T value) : value_(std::move(value)) {}                                   // NOLINT

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  // Precondition: ok().
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace warpwatch

#define WW_STATUS_CONCAT_INNER_(a, b) a##b
#define WW_STATUS_CONCAT_(a, b) WW_STATUS_CONCAT_INNER_(a, b)

// Returns from the enclosing function when expr (a Status) is not OK.
#define RETURN_IF_ERROR(expr)                                \
  do {                                                       \
    ::warpwatch::Status _ww_status = (expr);                 \
    if (!_ww_status.ok()) return _ww_status;                 \
  } while (0)

// ASSIGN_OR_RETURN(auto x, StatusOrExpr()): binds the value or returns the error.
#define ASSIGN_OR_RETURN(lhs, expr) \
  ASSIGN_OR_RETURN_IMPL_(WW_STATUS_CONCAT_(_ww_statusor_, __LINE__), lhs, expr)
#define ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                           \
  if (!tmp.ok()) return tmp.status();          \
  lhs = std::move(tmp).value()

#endif  // WARPWATCH_COMMON_STATUS_STATUS_H_
