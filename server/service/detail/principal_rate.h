// File: server/service/detail/principal_rate.h
// Bounded per principal (issue 23): how many calls of one kind (UploadRun) one principal may make
// in a sliding minute.
#ifndef WARPWATCH_SERVER_SERVICE_DETAIL_PRINCIPAL_RATE_H_
#define WARPWATCH_SERVER_SERVICE_DETAIL_PRINCIPAL_RATE_H_

#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

#include "common/status/status.h"

namespace warpwatch::server::detail {

// Thread-safe. Keeps at most `per_minute` instants per principal.
class PrincipalRate {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  // `per_minute` (>= 1) calls per principal in any 60 s; `what` and `flag` name the calls and the
  // setting in the over-limit message. `now` is the clock (tests pass a fake one).
  PrincipalRate(int per_minute, std::string what, std::string flag,
                Clock now = std::chrono::steady_clock::now);

  // Counts one call of `principal`: OK, or RESOURCE_EXHAUSTED naming the limit, its flag and when
  // the next call is allowed (a refused call is not counted).
  Status Admit(const std::string& principal);

 private:
  const int per_minute_;
  const std::string what_;
  const std::string flag_;
  const Clock now_;
  std::mutex mu_;
  // guarded by mu_: each principal's admitted calls of the last minute, oldest first
  std::unordered_map<std::string, std::deque<std::chrono::steady_clock::time_point>> calls_;
};

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_SERVICE_DETAIL_PRINCIPAL_RATE_H_
