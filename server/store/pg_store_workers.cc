// File: server/store/pg_store_workers.cc
// Worker registry: registration (with its devices) bound to the registering principal, the
// principal check of every other WorkerService call, and heartbeats.
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/pg_store_impl.h"

namespace warpwatch::server::detail {

namespace {

// Why `caller` may not register `uuids`: the first device held by an online worker of another
// principal (admins may move any device). OK when none is. Locks the device rows it reads.
Status CheckDevicesFree(pqxx::work& tx, const std::string& worker_id,
                        const std::vector<std::string>& uuids, const WorkerCaller& caller,
                        std::chrono::milliseconds online_window) {
  if (caller.admin) return OkStatus();
  pqxx::result held = tx.exec_params(
      "SELECT d.uuid, w.id FROM device d JOIN worker w ON w.id = d.worker_id"
      " WHERE d.uuid = ANY($1::text[]) AND w.id <> $2 AND w.principal <> $3"
      "   AND w.last_seen >= now() - $4::bigint * interval '1 millisecond'"
      " ORDER BY d.uuid FOR UPDATE OF d",
      TextArrayLiteral(uuids), worker_id, caller.principal,
      static_cast<int64_t>(online_window.count()));
  if (held.empty()) return OkStatus();
  return PermissionDeniedError("device " + held[0][0].as<std::string>() +
                               " is registered to online worker " + held[0][1].as<std::string>() +
                               " of another principal; it moves once that worker is offline, or "
                               "by an admin");
}

}  // namespace

StatusOr<std::string> PgStore::RegisterWorker(const v1::RegisterRequest& registration,
                                              const WorkerCaller& caller,
                                              std::chrono::milliseconds online_window) {
  std::vector<std::string> device_json;
  std::vector<std::string> uuids;
  for (int i = 0; i < registration.devices_size(); ++i) {
    const v1::Device& d = registration.devices(i);
    if (d.uuid().empty()) {
      return InvalidArgumentError("devices[" + std::to_string(i) + "].uuid: empty");
    }
    ASSIGN_OR_RETURN(std::string json, MessageToJson(d));
    device_json.push_back(std::move(json));
    uuids.push_back(d.uuid());
  }
  const std::string labels = StringMapToJson(std::map<std::string, std::string>(
      registration.labels().begin(), registration.labels().end()));
  const std::string families = TextArrayLiteral(
      std::vector<std::string>(registration.families().begin(), registration.families().end()));
  return Run<std::string>("RegisterWorker", [&](pqxx::work& tx) -> StatusOr<std::string> {
    // An id is reused only when its row exists and belongs to the caller (or the caller is an
    // admin); an unknown id gets a fresh one, so clients never pick ids.
    std::string id;
    if (!registration.worker_id().empty()) {
      pqxx::result existing = tx.exec_params(
          "SELECT principal FROM worker WHERE id = $1 FOR UPDATE", registration.worker_id());
      if (!existing.empty()) {
        const std::string owner = existing[0][0].as<std::string>();
        if (!caller.admin && !owner.empty() && owner != caller.principal) {
          return PermissionDeniedError("worker " + registration.worker_id() +
                                       " belongs to another principal");
        }
        id = registration.worker_id();
      }
    }
    if (id.empty()) id = tx.exec("SELECT gen_random_uuid()::text").at(0).at(0).as<std::string>();
    RETURN_IF_ERROR(CheckDevicesFree(tx, id, uuids, caller, online_window));
    // The principal of an existing row stays (an admin re-registering a worker does not take it).
    tx.exec_params(
        "INSERT INTO worker (id, hostname, labels, version, families, state, last_seen,"
        "  principal)"
        " VALUES ($1, $2, $3::jsonb, $4, $5::text[], 'ONLINE', now(), $6)"
        " ON CONFLICT (id) DO UPDATE SET hostname = EXCLUDED.hostname,"
        "   labels = EXCLUDED.labels, version = EXCLUDED.version,"
        "   families = EXCLUDED.families, state = 'ONLINE', last_seen = now(),"
        "   principal = CASE WHEN worker.principal = '' THEN EXCLUDED.principal"
        "                    ELSE worker.principal END",
        id, registration.hostname(), labels, registration.version(), families, caller.principal);
    // Devices this worker no longer reports are detached from it.
    tx.exec_params(
        "UPDATE device SET worker_id = NULL WHERE worker_id = $1 AND NOT (uuid = ANY($2::text[]))",
        id, TextArrayLiteral(uuids));
    for (int i = 0; i < registration.devices_size(); ++i) {
      const v1::Device& d = registration.devices(i);
      tx.exec_params(
          "INSERT INTO device (uuid, worker_id, name, compute_capability_major,"
          "  compute_capability_minor, sm_count, memory_bytes, l2_bytes, memory_bus_width_bits,"
          "  theoretical_bandwidth_bytes_per_second, max_sm_clock_mhz, max_memory_clock_mhz,"
          "  pci_bus_id, device_index, info, last_seen)"
          " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, now())"
          " ON CONFLICT (uuid) DO UPDATE SET worker_id = EXCLUDED.worker_id, name = EXCLUDED.name,"
          "   compute_capability_major = EXCLUDED.compute_capability_major,"
          "   compute_capability_minor = EXCLUDED.compute_capability_minor,"
          "   sm_count = EXCLUDED.sm_count, memory_bytes = EXCLUDED.memory_bytes,"
          "   l2_bytes = EXCLUDED.l2_bytes, memory_bus_width_bits = EXCLUDED.memory_bus_width_bits,"
          "   theoretical_bandwidth_bytes_per_second ="
          "     EXCLUDED.theoretical_bandwidth_bytes_per_second,"
          "   max_sm_clock_mhz = EXCLUDED.max_sm_clock_mhz,"
          "   max_memory_clock_mhz = EXCLUDED.max_memory_clock_mhz,"
          "   pci_bus_id = EXCLUDED.pci_bus_id, device_index = EXCLUDED.device_index,"
          "   info = EXCLUDED.info, last_seen = now()",
          d.uuid(), id, d.name(), d.compute_capability_major(), d.compute_capability_minor(),
          d.sm_count(), d.memory_bytes(), d.l2_bytes(), d.memory_bus_width_bits(),
          d.theoretical_bandwidth_bytes_per_second(), d.max_sm_clock_mhz(),
          d.max_memory_clock_mhz(), d.pci_bus_id(), d.index(), device_json[i]);
    }
    return id;
  });
}

Status PgStore::CheckWorkerCaller(const std::string& worker_id, const WorkerCaller& caller) {
  StatusOr<bool> r = Run<bool>("CheckWorkerCaller", [&](pqxx::work& tx) -> StatusOr<bool> {
    pqxx::result w = tx.exec_params("SELECT principal FROM worker WHERE id = $1", worker_id);
    if (w.empty()) return NotFoundError("worker " + worker_id + " not registered");
    // A row registered before principals were recorded: register again to bind it.
    if (w[0][0].as<std::string>().empty() && !caller.admin) {
      return NotFoundError("worker " + worker_id + " has no principal yet; register again");
    }
    if (!caller.admin && w[0][0].as<std::string>() != caller.principal) {
      return PermissionDeniedError("worker " + worker_id + " belongs to another principal");
    }
    return true;
  });
  return r.ok() ? OkStatus() : r.status();
}

}  // namespace warpwatch::server::detail
