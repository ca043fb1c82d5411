// File: tests/fuzz/exec_stream_fuzzer.cc
// The executor's exec protocol (worker/executor/message_stream): the framing between
// `warpwatch-worker exec` and its parent, on bytes a crashing or corrupted child could write.
// The input is split into read(2)-sized chunks (their sizes taken from the first bytes) and fed
// to the parent's non-blocking FrameReader, whose frames are parsed as ExecEvents as the parent
// does; the same bytes are then read from a file descriptor with the blocking ReadMessage (the
// child's side, reading its ExecRequest). Both readers must agree frame by frame: the same
// payloads in the same order, and the same verdict on an oversized length.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <google/protobuf/stubs/logging.h>

#include "worker/executor/exec_protocol.pb.h"
#include "worker/executor/message_stream.h"

namespace {

using warpwatch::StatusCode;
using warpwatch::worker::FrameReader;

// The stream as the parent sees it: payloads of complete frames, and whether it stopped on an
// oversized length.
struct Frames {
  std::vector<std::string> payloads;
  bool oversized = false;
};

Frames ReadWithFrameReader(const std::string& stream, const std::vector<size_t>& chunks) {
  Frames frames;
  FrameReader reader;
  size_t at = 0;
  size_t next_chunk = 0;
  while (at < stream.size()) {
    size_t n = chunks.empty() ? stream.size() : chunks[next_chunk++ % chunks.size()];
    if (n == 0 || n > stream.size() - at) n = stream.size() - at;
    reader.Feed(stream.data() + at, n);
    at += n;
    std::string payload;
    while (true) {
      auto frame = reader.Next(&payload);
      if (!frame.ok()) {
        if (frame.status().code() != StatusCode::kDataLoss) std::abort();
        frames.oversized = true;
        return frames;
      }
      if (!*frame) break;
      frames.payloads.push_back(payload);
      warpwatch::worker::internal::ExecEvent event;
      (void)event.ParseFromString(payload);  // as the parent does; a failure is its own verdict
    }
  }
  return frames;
}

// The same stream through ReadMessage on a descriptor (a memfd holding the bytes). Payloads are
// kept as raw bytes through a message type that keeps every field (ExecRequest would drop
// nothing either, but comparing bytes needs the payload itself): a frame's bytes are re-read.
Frames ReadWithReadMessage(const std::string& stream, bool* truncated) {
  Frames frames;
  *truncated = false;
  const int fd = ::memfd_create("exec_stream", 0);
  if (fd < 0) std::abort();
  size_t written = 0;
  while (written < stream.size()) {
    const ssize_t n = ::write(fd, stream.data() + written, stream.size() - written);
    if (n <= 0) std::abort();
    written += static_cast<size_t>(n);
  }
  ::lseek(fd, 0, SEEK_SET);
  size_t offset = 0;
  while (true) {
    warpwatch::worker::internal::ExecRequest request;
    const warpwatch::Status status = warpwatch::worker::ReadMessage(fd, &request);
    if (status.code() == StatusCode::kNotFound) break;  // clean end
    if (status.code() == StatusCode::kDataLoss) {
      // Oversized, truncated, or a payload that is no ExecRequest: tell them apart by the bytes.
      if (stream.size() - offset >= 4) {
        const auto* p = reinterpret_cast<const unsigned char*>(stream.data() + offset);
        const uint32_t len = uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
                             uint32_t{p[3]} << 24;
        if (len > warpwatch::worker::kMaxFrameBytes) {
          frames.oversized = true;
          break;
        }
        if (stream.size() - offset - 4 >= len) {
          // A complete frame that does not parse as ExecRequest: its payload still counts.
          frames.payloads.push_back(stream.substr(offset + 4, len));
          offset += 4 + len;
          ::lseek(fd, static_cast<off_t>(offset), SEEK_SET);
          continue;
        }
      }
      *truncated = true;
      break;
    }
    if (!status.ok()) std::abort();  // nothing else may come from a readable descriptor
    const auto* p = reinterpret_cast<const unsigned char*>(stream.data() + offset);
    const uint32_t len =
        uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
    frames.payloads.push_back(stream.substr(offset + 4, len));
    offset += 4 + len;
  }
  ::close(fd);
  return frames;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // protobuf logs every string field with invalid UTF-8 it parses: noise, and slow.
  static const bool kQuiet = (google::protobuf::SetLogHandler(nullptr), true);
  (void)kQuiet;
  // First byte: how many chunk sizes follow (0-7), one byte each (0 = the rest at once).
  if (size == 0) return 0;
  const size_t count = data[0] % 8;
  if (size < 1 + count) return 0;
  std::vector<size_t> chunks(data + 1, data + 1 + count);
  const std::string stream(reinterpret_cast<const char*>(data + 1 + count), size - 1 - count);

  const Frames parent = ReadWithFrameReader(stream, chunks);
  bool truncated = false;
  const Frames child = ReadWithReadMessage(stream, &truncated);
  if (parent.oversized != child.oversized) std::abort();
  if (parent.payloads != child.payloads) std::abort();
  return 0;
}
