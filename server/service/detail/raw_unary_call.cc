// File: server/service/detail/raw_unary_call.cc
#include "server/service/detail/raw_unary_call.h"

#include <grpcpp/impl/codegen/proto_utils.h>
#include <grpcpp/support/proto_buffer_reader.h>
#include <grpcpp/support/proto_buffer_writer.h>

#include <string>

namespace warpwatch::server::detail {

Status ParseRawRequest(const grpc::ByteBuffer& bytes, google::protobuf::Message* message) {
  // A ByteBuffer copy shares the slices (reference counts), it does not copy the bytes.
  grpc::ByteBuffer shared(bytes);
  grpc::ProtoBufferReader reader(&shared);
  if (!reader.status().ok() || !message->ParseFromZeroCopyStream(&reader)) {
    return InvalidArgumentError("request: not a valid " + message->GetTypeName() + " (" +
                                std::to_string(bytes.Length()) + " bytes)");
  }
  return OkStatus();
}

Status SerializeRawResponse(const google::protobuf::Message& message, grpc::ByteBuffer* bytes) {
  bool own_buffer = false;
  const grpc::Status status =
      grpc::SerializationTraits<google::protobuf::Message>::Serialize(message, bytes, &own_buffer);
  if (!status.ok()) {
    return InternalError("serializing " + message.GetTypeName() + ": " + status.error_message());
  }
  return OkStatus();
}

}  // namespace warpwatch::server::detail
