// File: server/store/pg_store_workers.cc
// Worker registry: registration (with its devices) and heartbeats.
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/pg_store_impl.h"

namespace warpwatch::server::detail {

StatusOr<std::string> PgStore::RegisterWorker(const v1::RegisterRequest& registration) {
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
    const std::string id =
        tx.exec_params(
              "INSERT INTO worker (id, hostname, labels, version, families, state, last_seen)"
              " VALUES (coalesce(nullif($1::text, ''), gen_random_uuid()::text), $2, $3::jsonb,"
              "         $4, $5::text[], 'ONLINE', now())"
              " ON CONFLICT (id) DO UPDATE SET hostname = EXCLUDED.hostname,"
              "   labels = EXCLUDED.labels, version = EXCLUDED.version,"
              "   families = EXCLUDED.families, state = 'ONLINE', last_seen = now()"
              " RETURNING id",
              registration.worker_id(), registration.hostname(), labels, registration.version(),
              families)
            .at(0)
            .at(0)
            .as<std::string>();
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

Status PgStore::TouchWorker(const std::string& worker_id) {
  StatusOr<bool> r = Run<bool>("TouchWorker", [&](pqxx::work& tx) -> StatusOr<bool> {
    pqxx::result u = tx.exec_params(
        "UPDATE worker SET last_seen = now(), state = 'ONLINE' WHERE id = $1", worker_id);
    if (u.affected_rows() == 0) return NotFoundError("worker " + worker_id + " not registered");
    return true;
  });
  return r.ok() ? OkStatus() : r.status();
}

}  // namespace warpwatch::server::detail
