// File: server/service/detail/principal_slots.h
// Bounded per principal (issue 23): how many of one kind of long-lived call (WatchJob streams,
// parked AcquireJob polls) one principal may hold at once, so one token cannot take what the
// server's global limits leave for everyone else.
#ifndef WARPWATCH_SERVER_SERVICE_DETAIL_PRINCIPAL_SLOTS_H_
#define WARPWATCH_SERVER_SERVICE_DETAIL_PRINCIPAL_SLOTS_H_

#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "common/status/status.h"

namespace warpwatch::server::detail {

// Thread-safe. Principals are a tokens file's names (a bounded set); a principal holding nothing
// takes no memory.
class PrincipalSlots {
 public:
  // `limit` (>= 1): slots one principal may hold; `what` names the calls and `flag` the setting
  // in the over-limit message ("WatchJob streams", "--max-watch-streams-per-principal").
  PrincipalSlots(int limit, std::string what, std::string flag);

  // One held slot; released when destroyed. Movable; must not outlive its PrincipalSlots.
  class Slot {
   public:
    Slot() = default;
    Slot(Slot&& other) noexcept;
    Slot& operator=(Slot&& other) noexcept;
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    ~Slot();

   private:
    friend class PrincipalSlots;
    Slot(PrincipalSlots* owner, std::string principal)
        : owner_(owner), principal_(std::move(principal)) {}
    void Release();
    PrincipalSlots* owner_ = nullptr;
    std::string principal_;
  };

  // A slot for `principal`, or RESOURCE_EXHAUSTED naming the limit and its flag when it already
  // holds `limit`.
  StatusOr<Slot> Acquire(const std::string& principal);
  // Slots `principal` holds now.
  int held(const std::string& principal) const;

 private:
  void Release(const std::string& principal);

  const int limit_;
  const std::string what_;
  const std::string flag_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, int> held_;  // guarded by mu_; no entry at 0
};

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_SERVICE_DETAIL_PRINCIPAL_SLOTS_H_
