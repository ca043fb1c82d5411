// File: server/store/detail/measurement_slim.h
// The slim document of a measurement past the raw-sample window (Store::DropOldSamples): its
// doc_pb without what the row's summary columns already hold (measurement_columns.h) and without
// the repeated copies of its counters, so an old row keeps each fact once. Reading a slim row
// rebuilds the whole measurement from its columns and this document (measurement_row.h).
// Pure (no database).
#ifndef WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_SLIM_H_
#define WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_SLIM_H_

#include <cstddef>
#include <string>

#include "common/status/status.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::server::detail {

// SQL condition on the measurement table aliased `m`: its doc_pb is a slim document (its first
// byte is 0x08, slim_document.proto says why). NULL when doc_pb is NULL (a JSON `doc` of a row
// stored before migration 0010, which is not slim).
inline constexpr const char* kSlimDocumentSql = "substring(m.doc_pb from 1 for 1) = '\\x08'::bytea";

// Whether a doc_pb value is a slim document (the same test as kSlimDocumentSql).
bool IsSlimDocument(const char* data, size_t size);

// The slim document (serialized) of a row whose whole document is `full` (no sample arrays, as
// stored) and whose columns give `columns` (MeasurementFromColumns). It omits every column field
// the columns give back exactly, each launch's or kernel's counters that are a copy of the
// measurement's or of a launch's, and kernel 0's name when it is kernel_name.
// Postcondition: MeasurementFromSlimDocument(result, columns) equals `full` byte for byte
// (deterministic serialization). It is checked here; a row where it would not hold (none known)
// gets a slim document that keeps every field of `full`.
std::string SlimDocumentOf(const v1::Measurement& full, const v1::Measurement& columns);

// The whole document back from a slim one and its row's columns (consumed). INTERNAL when `data`
// is not a slim document of a format this server knows, or names a kernel or launch it lacks.
StatusOr<v1::Measurement> MeasurementFromSlimDocument(const char* data, size_t size,
                                                      v1::Measurement columns);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_SLIM_H_
