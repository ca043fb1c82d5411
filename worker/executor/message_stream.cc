// Length-prefixed protobuf framing.
#include "worker/executor/message_stream.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace warpwatch::worker {
namespace {

constexpr size_t kReadChunkBytes = 1u << 20;

Status WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return UnavailableError(std::string("write to pipe: ") + std::strerror(errno));
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return OkStatus();
}

// Reads exactly size bytes; *got tells how many arrived before end of stream.
Status ReadAll(int fd, char* data, size_t size, size_t* got) {
  *got = 0;
  while (*got < size) {
    ssize_t n = ::read(fd, data + *got, size - *got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return UnavailableError(std::string("read from pipe: ") + std::strerror(errno));
    }
    if (n == 0) break;
    *got += static_cast<size_t>(n);
  }
  return OkStatus();
}

uint32_t DecodeLength(const unsigned char* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

}  // namespace

StatusOr<std::string> EncodeFrame(const google::protobuf::MessageLite& message) {
  std::string payload;
  if (!message.SerializeToString(&payload)) return InternalError("cannot serialize message");
  if (payload.size() > kMaxFrameBytes) return ResourceExhaustedError("message over frame limit");
  const uint32_t len = static_cast<uint32_t>(payload.size());
  const char header[4] = {static_cast<char>(len & 0xff), static_cast<char>((len >> 8) & 0xff),
                          static_cast<char>((len >> 16) & 0xff),
                          static_cast<char>((len >> 24) & 0xff)};
  std::string frame(header, 4);
  frame += payload;
  return frame;
}

Status WriteMessage(int fd, const google::protobuf::MessageLite& message) {
  ASSIGN_OR_RETURN(std::string frame, EncodeFrame(message));
  return WriteAll(fd, frame.data(), frame.size());
}

Status ReadMessage(int fd, google::protobuf::MessageLite* message) {
  unsigned char header[4];
  size_t got = 0;
  RETURN_IF_ERROR(ReadAll(fd, reinterpret_cast<char*>(header), 4, &got));
  if (got == 0) return NotFoundError("end of stream");
  if (got < 4) return Status(StatusCode::kDataLoss, "truncated frame header");
  const uint32_t len = DecodeLength(header);
  if (len > kMaxFrameBytes) return Status(StatusCode::kDataLoss, "oversized frame");
  // The payload grows as it arrives, a chunk at a time: a corrupt length prefix does not cost an
  // allocation of up to kMaxFrameBytes before the stream turns out to be short.
  std::string payload;
  while (payload.size() < len) {
    const size_t chunk = std::min<size_t>(len - payload.size(), kReadChunkBytes);
    const size_t old_size = payload.size();
    payload.resize(old_size + chunk);
    RETURN_IF_ERROR(ReadAll(fd, payload.data() + old_size, chunk, &got));
    if (got < chunk) return Status(StatusCode::kDataLoss, "truncated frame");
  }
  if (!message->ParseFromString(payload)) {
    return Status(StatusCode::kDataLoss, "frame does not parse");
  }
  return OkStatus();
}

StatusOr<bool> FrameReader::Next(std::string* payload) {
  if (buffer_.size() < 4) return false;
  const uint32_t len = DecodeLength(reinterpret_cast<const unsigned char*>(buffer_.data()));
  if (len > kMaxFrameBytes) return Status(StatusCode::kDataLoss, "oversized frame");
  if (buffer_.size() < 4 + size_t{len}) return false;
  payload->assign(buffer_, 4, len);
  buffer_.erase(0, 4 + size_t{len});
  return true;
}

}  // namespace warpwatch::worker
