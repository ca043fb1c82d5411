// File: server/store/detail/copy_binary.h
// PostgreSQL's binary COPY format (COPY ... FROM STDIN (FORMAT binary)): a writer of the stream,
// and sending it through libpq inside a libpqxx transaction (libpqxx 6.4 has text COPY only).
#ifndef WARPWATCH_SERVER_STORE_DETAIL_COPY_BINARY_H_
#define WARPWATCH_SERVER_STORE_DETAIL_COPY_BINARY_H_

#include <google/protobuf/repeated_field.h>

#include <cstdint>
#include <pqxx/transaction>
#include <string>
#include <string_view>

namespace warpwatch::server::detail {

// Builds one binary COPY stream in memory: the header on construction, then per row
// BeginRow(fields) and exactly `fields` field calls, in the table's column order of the COPY
// statement, each of the column's exact type (int8 for bigint, int4 for integer ...: the server
// reads the bytes as that type and refuses a length that does not match). Finish() appends the
// trailer and returns the stream. Not thread-safe.
class CopyBinaryWriter {
 public:
  CopyBinaryWriter();

  void BeginRow(int16_t fields);
  void Null();
  void Int8(int64_t v);
  void Int4(int32_t v);
  void Float8(double v);
  void Bool(bool v);
  void Text(std::string_view v);  // also bytea (raw bytes)
  void Jsonb(std::string_view json_text);
  // timestamptz from microseconds since the Unix epoch.
  void TimestamptzFromUnixMicros(int64_t micros);
  // One-dimensional arrays without NULLs; an empty one is PostgreSQL's '{}'.
  void Float8Array(const google::protobuf::RepeatedField<double>& v);
  void BoolArray(const google::protobuf::RepeatedField<bool>& v);
  void Int4Array(const google::protobuf::RepeatedField<int32_t>& v);

  std::string Finish();
  size_t size() const { return out_.size(); }

 private:
  void Be16(uint16_t v);
  void Be32(uint32_t v);
  void Be64(uint64_t v);
  void ArrayHeader(int32_t count, uint32_t element_oid, int32_t element_bytes);

  std::string out_;
};

// Runs `copy_statement` ("COPY t (cols) FROM STDIN (FORMAT binary)") in `tx`, sends `stream`, and
// returns the number of rows the server stored. Failures throw as libpqxx would
// (pqxx::broken_connection, pqxx::sql_error with the SQLSTATE), so the store's edge classifies
// them as for any statement; the transaction is then aborted.
int64_t CopyIn(pqxx::dbtransaction& tx, const std::string& copy_statement,
               const std::string& stream);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_COPY_BINARY_H_
