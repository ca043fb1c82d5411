// File: server/service/detail/principal_slots.cc
#include "server/service/detail/principal_slots.h"

#include <utility>

namespace warpwatch::server::detail {

PrincipalSlots::PrincipalSlots(int limit, std::string what, std::string flag)
    : limit_(limit), what_(std::move(what)), flag_(std::move(flag)) {}

PrincipalSlots::Slot::Slot(Slot&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr)), principal_(std::move(other.principal_)) {}

PrincipalSlots::Slot& PrincipalSlots::Slot::operator=(Slot&& other) noexcept {
  if (this != &other) {
    Release();
    owner_ = std::exchange(other.owner_, nullptr);
    principal_ = std::move(other.principal_);
  }
  return *this;
}

PrincipalSlots::Slot::~Slot() { Release(); }

void PrincipalSlots::Slot::Release() {
  if (owner_ != nullptr) owner_->Release(principal_);
  owner_ = nullptr;
}

StatusOr<PrincipalSlots::Slot> PrincipalSlots::Acquire(const std::string& principal) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    int& held = held_[principal];
    if (held < limit_) {
      ++held;
      return Slot(this, principal);
    }
  }
  return ResourceExhaustedError("\"" + principal + "\" already holds " + std::to_string(limit_) +
                                " " + what_ + ", the limit per principal (" + flag_ + ")");
}

int PrincipalSlots::held(const std::string& principal) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = held_.find(principal);
  return it == held_.end() ? 0 : it->second;
}

void PrincipalSlots::Release(const std::string& principal) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = held_.find(principal);
  if (it == held_.end()) return;
  if (--it->second <= 0) held_.erase(it);
}

}  // namespace warpwatch::server::detail
