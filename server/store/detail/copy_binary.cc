// File: server/store/detail/copy_binary.cc
#include "server/store/detail/copy_binary.h"

#include <libpq-fe.h>

#include <cstring>
#include <pqxx/largeobject>
#include <pqxx/pqxx>

namespace warpwatch::server::detail {
namespace {

// Element type OIDs (pg_type.oid) the array headers name.
constexpr uint32_t kBoolOid = 16;
constexpr uint32_t kInt4Oid = 23;
constexpr uint32_t kFloat8Oid = 701;

// Microseconds from the Unix epoch to PostgreSQL's (2000-01-01 00:00 UTC).
constexpr int64_t kPostgresEpochUnixMicros = 946684800LL * 1000000;

// libpqxx 6.4 hands its PGconn only to its large-object classes; borrow it through one. The
// transaction stays libpqxx's: the COPY runs inside it and ends before libpqxx uses it again.
class RawConnection : private pqxx::largeobject {
 public:
  static PGconn* Of(const pqxx::dbtransaction& tx) { return largeobject::raw_connection(tx); }
};

// Throws what libpqxx would for a failed result (and clears it).
[[noreturn]] void ThrowFor(PGconn* conn, PGresult* result, const std::string& query) {
  const std::string message = result != nullptr ? PQresultErrorMessage(result)
                                                : PQerrorMessage(conn);
  const char* state = result != nullptr ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  const std::string sqlstate = state != nullptr ? state : "";
  if (result != nullptr) PQclear(result);
  if (PQstatus(conn) != CONNECTION_OK) throw pqxx::broken_connection(message);
  throw pqxx::sql_error(message, query, sqlstate.empty() ? nullptr : sqlstate.c_str());
}

}  // namespace

CopyBinaryWriter::CopyBinaryWriter() {
  static constexpr char kSignature[] = "PGCOPY\n\377\r\n";  // 11 bytes with its NUL
  out_.append(kSignature, 11);
  Be32(0);  // flags: no OIDs
  Be32(0);  // header extension length
}

void CopyBinaryWriter::Be16(uint16_t v) {
  const char b[2] = {static_cast<char>(v >> 8), static_cast<char>(v)};
  out_.append(b, 2);
}

void CopyBinaryWriter::Be32(uint32_t v) {
  const char b[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                     static_cast<char>(v >> 8), static_cast<char>(v)};
  out_.append(b, 4);
}

void CopyBinaryWriter::Be64(uint64_t v) {
  Be32(static_cast<uint32_t>(v >> 32));
  Be32(static_cast<uint32_t>(v));
}

void CopyBinaryWriter::BeginRow(int16_t fields) { Be16(static_cast<uint16_t>(fields)); }

void CopyBinaryWriter::Null() { Be32(0xFFFFFFFFu); }

void CopyBinaryWriter::Int8(int64_t v) {
  Be32(8);
  Be64(static_cast<uint64_t>(v));
}

void CopyBinaryWriter::Int4(int32_t v) {
  Be32(4);
  Be32(static_cast<uint32_t>(v));
}

void CopyBinaryWriter::Float8(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  Be32(8);
  Be64(bits);
}

void CopyBinaryWriter::Bool(bool v) {
  Be32(1);
  out_.push_back(v ? 1 : 0);
}

void CopyBinaryWriter::Text(std::string_view v) {
  Be32(static_cast<uint32_t>(v.size()));
  out_.append(v.data(), v.size());
}

void CopyBinaryWriter::Jsonb(std::string_view json_text) {
  Be32(static_cast<uint32_t>(json_text.size() + 1));
  out_.push_back(1);  // jsonb binary format version
  out_.append(json_text.data(), json_text.size());
}

void CopyBinaryWriter::TimestamptzFromUnixMicros(int64_t micros) {
  Int8(micros - kPostgresEpochUnixMicros);
}

void CopyBinaryWriter::ArrayHeader(int32_t count, uint32_t element_oid, int32_t element_bytes) {
  if (count == 0) {
    Be32(12);  // ndim 0, no nulls, element type: '{}'
    Be32(0);
    Be32(0);
    Be32(element_oid);
    return;
  }
  Be32(static_cast<uint32_t>(20 + count * (4 + element_bytes)));
  Be32(1);  // ndim
  Be32(0);  // no NULLs
  Be32(element_oid);
  Be32(static_cast<uint32_t>(count));
  Be32(1);  // lower bound
}

void CopyBinaryWriter::Float8Array(const google::protobuf::RepeatedField<double>& v) {
  ArrayHeader(v.size(), kFloat8Oid, 8);
  for (double x : v) {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    Be32(8);
    Be64(bits);
  }
}

void CopyBinaryWriter::BoolArray(const google::protobuf::RepeatedField<bool>& v) {
  ArrayHeader(v.size(), kBoolOid, 1);
  for (bool x : v) {
    Be32(1);
    out_.push_back(x ? 1 : 0);
  }
}

void CopyBinaryWriter::Int4Array(const google::protobuf::RepeatedField<int32_t>& v) {
  ArrayHeader(v.size(), kInt4Oid, 4);
  for (int32_t x : v) {
    Be32(4);
    Be32(static_cast<uint32_t>(x));
  }
}

std::string CopyBinaryWriter::Finish() {
  Be16(0xFFFF);  // trailer: field count -1
  return std::move(out_);
}

int64_t CopyIn(pqxx::dbtransaction& tx, const std::string& copy_statement,
               const std::string& stream) {
  PGconn* conn = RawConnection::Of(tx);
  PGresult* started = PQexec(conn, copy_statement.c_str());
  if (started == nullptr || PQresultStatus(started) != PGRES_COPY_IN) {
    ThrowFor(conn, started, copy_statement);
  }
  PQclear(started);
  if (PQputCopyData(conn, stream.data(), static_cast<int>(stream.size())) != 1 ||
      PQputCopyEnd(conn, nullptr) != 1) {
    ThrowFor(conn, nullptr, copy_statement);
  }
  int64_t rows = -1;
  PGresult* failed = nullptr;
  // Read every result, so that the connection is idle again for libpqxx.
  while (PGresult* r = PQgetResult(conn)) {
    if (PQresultStatus(r) == PGRES_COMMAND_OK && failed == nullptr) {
      rows = std::strtoll(PQcmdTuples(r), nullptr, 10);
      PQclear(r);
    } else if (failed == nullptr) {
      failed = r;
    } else {
      PQclear(r);
    }
  }
  if (failed != nullptr || rows < 0) ThrowFor(conn, failed, copy_statement);
  return rows;
}

}  // namespace warpwatch::server::detail
