// File: bench/detail/process_cpu.cc
#include "bench/detail/process_cpu.h"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace warpwatch::bench {
namespace {

// Fields of /proc/<pid>/stat after the command name: (ppid, utime + stime, cutime + cstime) in
// clock ticks; false when the process is gone.
struct ProcStat {
  pid_t ppid = 0;
  long long own_ticks = 0;
  long long children_ticks = 0;
};

bool ReadStat(pid_t pid, ProcStat* out) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text)) return false;
  const size_t close = text.rfind(')');  // the command name may hold spaces
  if (close == std::string::npos) return false;
  std::istringstream fields(text.substr(close + 2));
  std::vector<std::string> f;
  for (std::string s; fields >> s;) f.push_back(s);
  // f[0] is field 3 (state); ppid is field 4, utime..cstime fields 14..17.
  if (f.size() < 15) return false;
  out->ppid = static_cast<pid_t>(std::atoi(f[1].c_str()));
  out->own_ticks = std::atoll(f[11].c_str()) + std::atoll(f[12].c_str());
  out->children_ticks = std::atoll(f[13].c_str()) + std::atoll(f[14].c_str());
  return true;
}

}  // namespace

double SelfCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

double PostgresCpuSeconds(const std::string& data_dir) {
  std::ifstream pid_file(data_dir + "/postmaster.pid");
  pid_t postmaster = 0;
  if (!(pid_file >> postmaster) || postmaster <= 0) return -1;
  ProcStat master;
  if (!ReadStat(postmaster, &master)) return -1;
  long long ticks = master.own_ticks + master.children_ticks;
  if (DIR* proc = opendir("/proc")) {
    while (dirent* e = readdir(proc)) {
      const pid_t pid = static_cast<pid_t>(std::atoi(e->d_name));
      ProcStat s;
      if (pid > 0 && ReadStat(pid, &s) && s.ppid == postmaster) ticks += s.own_ticks;
    }
    closedir(proc);
  }
  return static_cast<double>(ticks) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace warpwatch::bench
