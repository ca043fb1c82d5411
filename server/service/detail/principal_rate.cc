// File: server/service/detail/principal_rate.cc
#include "server/service/detail/principal_rate.h"

#include <cmath>
#include <utility>

namespace warpwatch::server::detail {

PrincipalRate::PrincipalRate(int per_minute, std::string what, std::string flag, Clock now)
    : per_minute_(per_minute), what_(std::move(what)), flag_(std::move(flag)), now_(std::move(now)) {}

Status PrincipalRate::Admit(const std::string& principal) {
  const auto now = now_();
  const auto window = std::chrono::minutes(1);
  std::lock_guard<std::mutex> lock(mu_);
  std::deque<std::chrono::steady_clock::time_point>& calls = calls_[principal];
  while (!calls.empty() && calls.front() <= now - window) calls.pop_front();
  if (static_cast<int>(calls.size()) < per_minute_) {
    calls.push_back(now);
    return OkStatus();
  }
  const double wait =
      std::chrono::duration<double>(calls.front() + window - now).count();
  return ResourceExhaustedError(
      "\"" + principal + "\" made " + std::to_string(per_minute_) + " " + what_ +
      " in the last minute, the limit per principal (" + flag_ + "); the next is allowed in " +
      std::to_string(static_cast<int>(std::ceil(wait))) + " s");
}

}  // namespace warpwatch::server::detail
