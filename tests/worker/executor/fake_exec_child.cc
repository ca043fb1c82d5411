// A stand-in for `warpwatch-worker exec` that needs no GPU: it speaks the executor protocol and
// misbehaves on command, by point variant: "ok" reports a measurement; "crash" aborts; "hang"
// sleeps forever; "sticky" reports a FAILED point with a CUDA-like error and exits 3 (as the real
// child does after a sticky error); "exit" exits 1 without reporting; "die_before_start" exits 1
// before announcing the point; "fatal" sends a fatal event.
// `--stall-once-before-read=FILE`: the first child to see FILE missing creates it, writes its pid
// there and sleeps forever before reading its request (a child stuck before reading stdin); later
// children behave normally.
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "worker/executor/exec_protocol.pb.h"
#include "worker/executor/message_stream.h"

using warpwatch::worker::ReadMessage;
using warpwatch::worker::WriteMessage;
using warpwatch::worker::internal::ExecEvent;
using warpwatch::worker::internal::ExecRequest;

namespace {

void StallOnceBeforeReading(const char* marker) {
  int fd = ::open(marker, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) return;  // another child stalled already
  std::string pid = std::to_string(getpid());
  (void)!::write(fd, pid.data(), pid.size());
  ::close(fd);
  while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
}

}  // namespace

int main(int argc, char** argv) {
  const char kStallFlag[] = "--stall-once-before-read=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], kStallFlag, sizeof kStallFlag - 1) == 0) {
      StallOnceBeforeReading(argv[i] + sizeof kStallFlag - 1);
    }
  }
  ExecRequest request;
  if (!ReadMessage(STDIN_FILENO, &request).ok()) return 4;
  ExecEvent event;
  if (request.points_size() > 0 && request.points(0).variant() == "fatal") {
    event.set_fatal("no CUDA device: fake child says so");
    WriteMessage(STDOUT_FILENO, event);
    return 4;
  }
  event.mutable_environment()->set_hostname("fake-host");
  event.mutable_environment()->set_temperature_c_start(40 + getpid() % 10);
  (*event.mutable_environment()->mutable_labels())["at_start"] = "s";
  WriteMessage(STDOUT_FILENO, event);
  for (int i = 0; i < request.points_size(); ++i) {
    const std::string& variant = request.points(i).variant();
    if (variant == "die_before_start") _exit(1);
    event.Clear();
    event.set_point_started(i);
    WriteMessage(STDOUT_FILENO, event);
    if (variant == "crash") std::abort();
    if (variant == "hang") {
      while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    if (variant == "exit") _exit(1);
    event.Clear();
    auto* m = event.mutable_measurement();
    *m->mutable_case_() = request.points(i);
    if (variant == "sticky") {
      m->set_status(warpwatch::v1::POINT_STATUS_FAILED);
      m->set_error("first run: cudaErrorIllegalAddress: an illegal memory access was encountered");
      WriteMessage(STDOUT_FILENO, event);
      _exit(3);
    }
    m->set_status(warpwatch::v1::POINT_STATUS_OK);
    m->add_samples_seconds(1e-3);
    m->set_kernel_name("pid " + std::to_string(getpid()));
    WriteMessage(STDOUT_FILENO, event);
  }
  event.Clear();
  event.mutable_end()->set_temperature_c_end(55);
  (*event.mutable_end()->mutable_labels())["at_end"] = "pid " + std::to_string(getpid());
  WriteMessage(STDOUT_FILENO, event);
  return 0;
}
