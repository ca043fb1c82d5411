// File: worker/daemon/serve_options.cc
#include "worker/daemon/serve_options.h"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "worker/contention/contention_flags.h"

namespace warpwatch::worker {
namespace {

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

}  // namespace

CLI::App* AddServeCommand(CLI::App& app, ServeOptions* o) {
  CLI::App* serve = app.add_subcommand("serve", "register with a server and run its jobs");
  serve->add_option("--server", o->client.server, "server address host:port")->required();
  // The token comes from a file or the environment, never from the command line, where every
  // user of the host reads it (ps).
  if (const char* token = std::getenv("WARPWATCH_TOKEN")) o->client.token = token;
  serve->add_option("--token-file", o->token_file,
                    "file holding the bearer token, worker role (or WARPWATCH_TOKEN)")
      ->envname("WARPWATCH_TOKEN_FILE")
      ->check([o](const std::string& path) -> std::string {
        std::ifstream in(path);
        if (!in) return "--token-file " + path + ": cannot be read";
        std::stringstream text;
        text << in.rdbuf();
        const std::string t = text.str();
        const size_t first = t.find_first_not_of(" \t\r\n");
        if (first == std::string::npos) return "--token-file " + path + ": empty";
        o->client.token = t.substr(first, t.find_last_not_of(" \t\r\n") - first + 1);
        return "";
      });
  static std::string refused_token;
  serve->add_option("--token", refused_token)
      ->check([](const std::string&) -> std::string {
        return "a token on the command line is visible to every user of this host (ps); use "
               "--token-file FILE or the WARPWATCH_TOKEN environment variable";
      })
      ->group("");
  serve->add_option("--tls-ca", o->client.tls_ca_file, "PEM CA to verify the server (TLS)")
      ->envname("WARPWATCH_TLS_CA");
  serve
      ->add_option("--tls-cert", o->client.tls_cert_file,
                   "PEM client certificate, for servers that require one (mTLS); needs --tls-ca")
      ->envname("WARPWATCH_TLS_CERT");
  serve->add_option("--tls-key", o->client.tls_key_file, "PEM private key of --tls-cert")
      ->envname("WARPWATCH_TLS_KEY");
  serve->add_flag("--allow-plaintext-token", o->client.allow_plaintext_token,
                  "send the token without TLS to a server that is not on this host");
  serve->add_option("--gpus", o->gpus, "GPUs to serve: all, or ordinals 0,1")
      ->capture_default_str();
  serve->add_option("--labels", o->labels, "worker labels k=v,k2=v2 (for job selectors)");
  serve->add_option("--metrics-listen", o->metrics_listen, "/metrics address; empty disables")
      ->capture_default_str();
  serve->add_option("--grace-seconds", o->daemon.grace_seconds,
                    "on SIGTERM, running jobs get this long before they are handed back")
      ->capture_default_str();
  serve->add_option("--acquire-wait-seconds", o->daemon.acquire_wait_seconds,
                    "AcquireJob long-poll length")
      ->capture_default_str();
  serve->add_option("--reconnect-max-seconds", o->daemon.backoff.max_seconds,
                    "cap of the reconnect backoff")
      ->capture_default_str();
  serve->add_option("--reconnect-initial-seconds", o->daemon.backoff.initial_seconds,
                    "first reconnect delay")
      ->capture_default_str();
  serve->add_option("--log-level", o->log_level, "trace, debug, info, warn, error")
      ->capture_default_str();
  AddContentionFlags(*serve, &o->test_contention);  // hidden, test only
  return serve;
}

StatusOr<std::vector<int>> ParseGpuList(const std::string& gpus, int device_count) {
  std::vector<int> ordinals;
  if (gpus == "all") {
    for (int i = 0; i < device_count; ++i) ordinals.push_back(i);
    return ordinals;
  }
  std::set<int> seen;
  for (const std::string& part : Split(gpus, ',')) {
    int value = -1;
    size_t used = 0;
    try {
      value = std::stoi(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (part.empty() || used != part.size() || value < 0) {
      return InvalidArgumentError("--gpus: \"" + part + "\" is not a GPU ordinal");
    }
    if (value >= device_count) {
      return InvalidArgumentError("--gpus: GPU " + part + " does not exist (" +
                                  std::to_string(device_count) + " GPU(s) on this host)");
    }
    if (!seen.insert(value).second) return InvalidArgumentError("--gpus: GPU " + part + " twice");
    ordinals.push_back(value);
  }
  if (ordinals.empty()) return InvalidArgumentError("--gpus: empty");
  return ordinals;
}

StatusOr<std::map<std::string, std::string>> ParseLabels(const std::string& labels) {
  std::map<std::string, std::string> parsed;
  if (labels.empty()) return parsed;
  for (const std::string& pair : Split(labels, ',')) {
    size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) {
      return InvalidArgumentError("--labels: \"" + pair + "\" is not key=value");
    }
    if (!parsed.emplace(pair.substr(0, eq), pair.substr(eq + 1)).second) {
      return InvalidArgumentError("--labels: key \"" + pair.substr(0, eq) + "\" twice");
    }
  }
  return parsed;
}

}  // namespace warpwatch::worker
