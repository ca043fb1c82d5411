// File: tests/server/metrics/metrics_scrape.h
// Reading a live /metrics endpoint in tests, as Prometheus would.
#ifndef WARPWATCH_TESTS_SERVER_METRICS_METRICS_SCRAPE_H_
#define WARPWATCH_TESTS_SERVER_METRICS_METRICS_SCRAPE_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sstream>
#include <string>
#include <vector>

namespace warpwatch::testing {

// GET http://127.0.0.1:port/metrics; the whole response (headers and body), "" on failure.
inline std::string FetchMetrics(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return "";
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string response;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    const std::string request = "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    if (write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
      char buf[4096];
      for (ssize_t n; (n = read(fd, buf, sizeof(buf))) > 0;) response.append(buf, n);
    }
  }
  close(fd);
  return response;
}

inline bool HasLineWith(const std::string& text, const std::vector<std::string>& parts) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    bool all = true;
    for (const std::string& part : parts) all = all && line.find(part) != std::string::npos;
    if (all) return true;
  }
  return false;
}

// The value of the first sample of metric `name` whose label set holds every one of `labels`
// (each written as in the exposition: `outcome="empty"`); -1 when there is none, so a missing
// series never reads as zero.
inline double SampleValue(const std::string& text, const std::string& name,
                          const std::vector<std::string>& labels) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(name + "{", 0) != 0 && line.rfind(name + " ", 0) != 0) continue;
    bool all = true;
    for (const std::string& label : labels) all = all && line.find(label) != std::string::npos;
    if (all) return std::stod(line.substr(line.rfind(' ') + 1));
  }
  return -1;
}

}  // namespace warpwatch::testing

#endif  // WARPWATCH_TESTS_SERVER_METRICS_METRICS_SCRAPE_H_
