// warpwatch-worker: `list` the kernel catalog, `run` a suite locally, and the hidden `exec` child of
// the executor. (`serve`, the daemon, comes with the worker daemon work.)
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "kernels/core/family.h"
#include "kernels/interconnect/nvls_guard.h"
#include "worker/cli/catalog_listing.h"
#include "worker/cli/run_command.h"
#include "worker/contention/contention_flags.h"
#include "worker/daemon/gpu_serve.h"
#include "worker/device/device_info.h"
#include "worker/executor/exec_child.h"
#include "worker/executor/process_executor.h"

namespace {

std::string CommandLine(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    if (i) line += ' ';
    std::string a = argv[i];
    bool quote = a.empty() || a.find_first_of(" \t'\"*?&;|<>$") != std::string::npos;
    line += quote ? "'" + a + "'" : a;
  }
  return line;
}

int Run(const warpwatch::worker::RunOptions& options, const std::string& command_line) {
  using namespace warpwatch::worker;
  warpwatch::StatusOr<std::string> self = SelfExecutablePath();
  if (!self.ok()) {
    std::cerr << "warpwatch-worker run: " << self.status().message() << "\n";
    return kRunExitUsage;
  }
  ProcessExecutorOptions exec_options;
  exec_options.child_argv = {*self, "exec"};
  for (const std::string& a : ContentionChildArgs(options.contention)) {
    exec_options.child_argv.push_back(a);
  }
  ProcessExecutor executor(exec_options);
  RunEnvironmentHooks hooks;
  hooks.device_count = [] { return CudaDeviceCount(); };
  hooks.executor = &executor;
  hooks.progress_is_tty = ::isatty(STDERR_FILENO) != 0;
  return RunCommand(options, command_line, hooks, std::cout, std::cerr);
}

int Exec(const warpwatch::worker::ContentionOptions& contention) {
  // The protocol owns the real stdout; anything else printing (CUDA, CUPTI) goes to stderr.
  int protocol_fd = ::dup(STDOUT_FILENO);
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  return warpwatch::worker::RunExecChild(STDIN_FILENO, protocol_fd, contention);
}

}  // namespace

int main(int argc, char** argv) {
  // Before any thread starts and before any child is forked: NVLink multicast stays off in this
  // process and every process it starts (kernels/interconnect/nvls_guard.h).
  if (const std::string note = warpwatch::kernels::KeepNvlsOff(); !note.empty()) {
    std::cerr << "warpwatch-worker: " << note << "\n";
  }
  CLI::App app{"warpwatch-worker: runs the CUDA performance suite on this host's GPUs"};
  app.require_subcommand(1);
  CLI::App* list = app.add_subcommand("list", "print the kernel catalog");
  CLI::App* run = app.add_subcommand("run", "run the suite locally and print a summary");
  CLI::App* exec = app.add_subcommand("exec", "internal: executor child (protocol on stdin/stdout)");
  exec->group("");  // hidden
  warpwatch::worker::ContentionOptions exec_contention;
  warpwatch::worker::AddContentionFlags(*exec, &exec_contention);
  warpwatch::worker::ServeOptions serve_options;
  CLI::App* serve = warpwatch::worker::AddServeCommand(app, &serve_options);

  warpwatch::worker::RunOptions o;
  run->add_option("--family", o.families, "family name or glob (repeatable; default: all)");
  run->add_option("--variant", o.variants, "variant glob (repeatable; default: all)");
  run->add_option("--axis", o.axes, "[FAMILY:]NAME=V1,V2 axis values (repeatable)");
  run->add_option("--device", o.device, "CUDA device ordinal")->capture_default_str();
  run->add_flag("--node", o.node,
                "a node job: the interconnect families over every GPU (implied by --family "
                "naming only them)");
  run->add_option("--max-noise", o.max_noise_percent,
                  "target relative standard deviation in percent (default 0.5)");
  run->add_option("--min-samples", o.min_samples, "minimum samples per point (default 10)");
  run->add_option("--max-samples", o.max_samples, "maximum samples per point (default 2000)");
  run->add_option("--timeout", o.point_timeout_seconds, "sampling time limit per point, s (15)");
  run->add_option("--min-time", o.min_time_seconds,
                  "GPU time to sample before the noise rule may stop, s (0.1)");
  run->add_option("--sample-groups", o.sample_groups,
                  "take the samples in N groups, each on fresh allocations (1)");
  run->add_flag("--hot", o.no_l2_flush, "do not flush L2 before samples");
  run->add_flag("--counters", o.counters, "collect CUPTI counters in a separate pass");
  run->add_option("--out", o.out, "write the RunResult JSON here");
  warpwatch::worker::AddContentionFlags(*run, &o.contention);  // hidden, test only
  CLI11_PARSE(app, argc, argv);

  if (*list) {
    std::cout << warpwatch::worker::FormatCatalogListing(
        warpwatch::kernels::ImplementedFamilies());
    return 0;
  }
  if (*run) return Run(o, CommandLine(argc, argv));
  if (*exec) return Exec(exec_contention);
  if (*serve) return warpwatch::worker::RunGpuServe(serve_options);
  return 1;
}
