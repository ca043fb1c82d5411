// Length-prefixed protobuf framing over a file descriptor (pipe): a 4-byte little-endian length
// followed by the serialized message. Used by the executor's parent and child.
#ifndef WARPWATCH_WORKER_EXECUTOR_MESSAGE_STREAM_H_
#define WARPWATCH_WORKER_EXECUTOR_MESSAGE_STREAM_H_

#include <cstdint>
#include <string>

#include <google/protobuf/message_lite.h>

#include "common/status/status.h"

namespace warpwatch::worker {

// Largest frame accepted; a longer length prefix means a corrupt stream.
inline constexpr uint32_t kMaxFrameBytes = 64u << 20;

// The bytes of one frame (length prefix + payload), for a writer that cannot block.
// RESOURCE_EXHAUSTED over kMaxFrameBytes.
StatusOr<std::string> EncodeFrame(const google::protobuf::MessageLite& message);

// Writes one frame, retrying short writes and EINTR. Blocking (fd must be a blocking one).
Status WriteMessage(int fd, const google::protobuf::MessageLite& message);

// Reads exactly one frame, blocking. NOT_FOUND at a clean end of stream before any byte;
// DATA_LOSS on a truncated or oversized frame or a message that does not parse.
Status ReadMessage(int fd, google::protobuf::MessageLite* message);

// Incremental reader for a non-blocking consumer: Feed() what read(2) returned, then take
// complete frames with Next(). Not thread-safe.
class FrameReader {
 public:
  void Feed(const char* data, size_t size) { buffer_.append(data, size); }
  // True and the frame's payload when one is complete. DATA_LOSS on an oversized length.
  StatusOr<bool> Next(std::string* payload);
  // Bytes received but not yet returned as a frame.
  size_t pending() const { return buffer_.size(); }

 private:
  std::string buffer_;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_EXECUTOR_MESSAGE_STREAM_H_
