// File: worker/daemon/registrar.h
// The worker's registration with the server: the identity it registers (host, labels, GPUs,
// families), the worker id it got, kept across reconnects and re-registrations, and the heartbeat
// interval and lease length the server asked for.
#ifndef WARPWATCH_WORKER_DAEMON_REGISTRAR_H_
#define WARPWATCH_WORKER_DAEMON_REGISTRAR_H_

#include <chrono>
#include <mutex>
#include <string>

#include "common/status/status.h"
#include "warpwatch/v1/worker.pb.h"
#include "worker/client/worker_client.h"

namespace warpwatch::worker {

// Thread-safe. `client` must outlive the registrar. The lock is never held across the RPC.
class Registrar {
 public:
  // `identity`: everything but worker_id, which the registrar fills.
  Registrar(WorkerClient* client, v1::RegisterRequest identity);

  // One Register call with the current worker id (empty the first time). On success the id and
  // timings are updated and needs_register() turns false.
  Status Register();

  // The current worker id; empty before the first successful Register.
  std::string worker_id() const;
  // True before the first success and after Invalidate().
  bool needs_register() const;
  // The server no longer knows this worker (NOT_FOUND): register again, keeping the id.
  void Invalidate();

  // From the last RegisterResponse; defaults until then (5 s, 60 s). A non-positive interval from
  // the server is replaced by a third of the lease.
  std::chrono::milliseconds heartbeat_interval() const;
  double lease_seconds() const;

 private:
  WorkerClient* client_;

  mutable std::mutex mu_;
  v1::RegisterRequest identity_;      // guarded by mu_; worker_id is the current id
  bool registered_ = false;           // guarded by mu_
  double heartbeat_seconds_ = 5;      // guarded by mu_
  double lease_seconds_ = 60;         // guarded by mu_
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_REGISTRAR_H_
