// File: bench/detail/cpu_placement.cc
#include "bench/detail/cpu_placement.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace warpwatch::bench {
namespace {

cpu_set_t OnlineCpus() {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  if (::sched_getaffinity(0, sizeof(cpus), &cpus) != 0) {
    const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
    for (long i = 0; i < n && i < CPU_SETSIZE; ++i) CPU_SET(i, &cpus);
  }
  return cpus;
}

StatusOr<int> ParseCpu(const std::string& text, const std::string& list) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
      text.size() > 5) {
    return InvalidArgumentError("CPU list \"" + list + "\": \"" + text + "\" is not a CPU number");
  }
  const int cpu = std::stoi(text);
  if (cpu >= CPU_SETSIZE) {
    return InvalidArgumentError("CPU list \"" + list + "\": CPU " + text + " is out of range");
  }
  return cpu;
}

}  // namespace

StatusOr<cpu_set_t> ParseCpuList(const std::string& list) {
  const cpu_set_t online = OnlineCpus();
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  std::stringstream items(list);
  std::string item;
  while (std::getline(items, item, ',')) {
    const size_t dash = item.find('-');
    ASSIGN_OR_RETURN(const int first, ParseCpu(item.substr(0, dash), list));
    int last = first;
    if (dash != std::string::npos) {
      ASSIGN_OR_RETURN(last, ParseCpu(item.substr(dash + 1), list));
    }
    if (last < first) {
      return InvalidArgumentError("CPU list \"" + list + "\": range " + item + " is reversed");
    }
    for (int cpu = first; cpu <= last; ++cpu) {
      if (!CPU_ISSET(cpu, &online)) {
        return InvalidArgumentError("CPU list \"" + list + "\": CPU " + std::to_string(cpu) +
                                    " is not available to this process");
      }
      CPU_SET(cpu, &cpus);
    }
  }
  if (CPU_COUNT(&cpus) == 0) return InvalidArgumentError("CPU list \"" + list + "\" is empty");
  return cpus;
}

cpu_set_t CpusOtherThan(const cpu_set_t& taken) {
  cpu_set_t rest = OnlineCpus();
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &taken)) CPU_CLR(cpu, &rest);
  }
  return rest;
}

Status PinThisProcess(const cpu_set_t& cpus) {
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error)) {
    const pid_t tid = static_cast<pid_t>(std::stol(task.path().filename().string()));
    // A thread may have exited since the listing (ESRCH): nothing left to move.
    if (::sched_setaffinity(tid, sizeof(cpus), &cpus) != 0 && errno != ESRCH) {
      return InternalError("sched_setaffinity(" + std::to_string(tid) +
                           "): " + std::strerror(errno));
    }
  }
  if (error) return InternalError("/proc/self/task: " + error.message());
  return OkStatus();
}

std::string CpuListString(const cpu_set_t& cpus) {
  std::string out;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &cpus)) continue;
    if (!out.empty()) out += ',';
    out += std::to_string(cpu);
  }
  return out;
}

}  // namespace warpwatch::bench
