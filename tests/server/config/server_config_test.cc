// File: tests/server/config/server_config_test.cc
#include "server/config/server_config.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace warpwatch::server {
namespace {

ServerConfig Parse(std::vector<std::string> args) {
  ServerConfig config;
  CLI::App app;
  AddServerFlags(app, &config);
  std::vector<const char*> argv = {"warpwatch-server"};
  for (const auto& a : args) argv.push_back(a.c_str());
  app.parse(static_cast<int>(argv.size()), const_cast<char**>(argv.data()));
  return config;
}

TEST(ServerConfigTest, DefaultsMatchTheDesign) {
  ServerConfig config = Parse({"--database-url", "postgresql://x@h/db", "--allow-open"});
  EXPECT_EQ(config.listen, "0.0.0.0:50051");
  EXPECT_EQ(config.metrics_listen, "0.0.0.0:9464");
  EXPECT_TRUE(ValidateServerConfig(config).ok());
}

TEST(ServerConfigTest, AnOpenServerOnANetworkAddressIsRefusedUnlessAllowed) {
  ServerConfig config = Parse({"--database-url", "postgresql://x@h/db"});
  Status status = ValidateServerConfig(config);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("--allow-open"), std::string::npos) << status.message();
  for (const char* loopback : {"127.0.0.1:50051", "localhost:0", "[::1]:50051", "unix:/tmp/ww"}) {
    config.listen = loopback;
    EXPECT_TRUE(ValidateServerConfig(config).ok()) << loopback;
  }
  config.listen = "[::]:50051";
  EXPECT_FALSE(ValidateServerConfig(config).ok());
  config.listen = "10.0.0.7:50051";
  EXPECT_FALSE(ValidateServerConfig(config).ok());
}

TEST(ServerConfigTest, TokensWithoutTlsOnANetworkAddressAreRefusedUnlessAllowed) {
  ServerConfig config =
      Parse({"--database-url", "postgresql://x@h/db", "--tokens-file", "/etc/ww/tokens"});
  Status status = ValidateServerConfig(config);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("plaintext"), std::string::npos) << status.message();
  config.allow_plaintext_tokens = true;
  EXPECT_TRUE(ValidateServerConfig(config).ok());
  config.allow_plaintext_tokens = false;
  config.tls_cert = "cert.pem";
  config.tls_key = "key.pem";
  EXPECT_TRUE(ValidateServerConfig(config).ok());
  config.tls_cert = config.tls_key = "";
  config.listen = "127.0.0.1:50051";
  EXPECT_TRUE(ValidateServerConfig(config).ok());
}

TEST(ServerConfigTest, EnvironmentVariablesFillUnsetFlags) {
  setenv("WARPWATCH_DATABASE_URL", "postgresql://env@h/db", 1);
  setenv("WARPWATCH_MAX_SWEEP_POINTS", "77", 1);
  setenv("WARPWATCH_LISTEN", "127.0.0.1:6000", 1);
  ServerConfig config = Parse({"--listen", "127.0.0.1:7000"});
  unsetenv("WARPWATCH_DATABASE_URL");
  unsetenv("WARPWATCH_MAX_SWEEP_POINTS");
  unsetenv("WARPWATCH_LISTEN");
  EXPECT_EQ(config.database_url, "postgresql://env@h/db");
  EXPECT_EQ(config.max_sweep_points, 77);
  EXPECT_EQ(config.listen, "127.0.0.1:7000");  // the flag wins over the environment
}

TEST(ServerConfigTest, ADatabaseUrlIsRequired) {
  Status status = ValidateServerConfig(ServerConfig());
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("--database-url"), std::string::npos);
}

TEST(ServerConfigTest, AReadReplicaUrlMustNotNameThePrimaryAndItsLagLimitMustBePositive) {
  ServerConfig config =
      Parse({"--database-url", "postgresql://x@h/db", "--allow-open", "--read-database-url",
             "postgresql://x@standby/db", "--read-max-lag-seconds", "5"});
  EXPECT_EQ(config.read_database_url, "postgresql://x@standby/db");
  EXPECT_EQ(config.read_max_lag_seconds, 5);
  EXPECT_TRUE(ValidateServerConfig(config).ok()) << ValidateServerConfig(config).ToString();
  config.read_database_url = config.database_url;
  EXPECT_NE(ValidateServerConfig(config).message().find("--read-database-url"), std::string::npos);
  config.read_database_url = "postgresql://x@standby/db";
  config.read_max_lag_seconds = 0;
  EXPECT_NE(ValidateServerConfig(config).message().find("--read-max-lag-seconds"),
            std::string::npos);
}

TEST(ServerConfigTest, AClientCaNeedsAServerCertificate) {
  ServerConfig config;
  config.database_url = "postgresql://x@h/db";
  config.tls_client_ca = "/ca.pem";
  EXPECT_NE(ValidateServerConfig(config).message().find("--tls-client-ca"), std::string::npos);
}

TEST(ServerConfigTest, ACertificateNeedsItsKey) {
  ServerConfig config;
  config.database_url = "postgresql://x@h/db";
  config.tls_cert = "/server.pem";
  EXPECT_FALSE(ValidateServerConfig(config).ok());
}

TEST(ServerConfigTest, SummaryRetentionDefaultsToAYearAndOutlivesRawSamples) {
  const std::vector<std::string> base = {"--database-url", "postgresql://x@h/db", "--allow-open"};
  ServerConfig config = Parse(base);
  EXPECT_EQ(config.summary_retention_days, 365);
  std::vector<std::string> args = base;
  args.insert(args.end(), {"--summary-retention-days", "0", "--sample-retention-days", "30"});
  config = Parse(args);
  EXPECT_EQ(config.summary_retention_days, 0);  // kept forever
  EXPECT_TRUE(ValidateServerConfig(config).ok());
  config.summary_retention_days = 20;  // summaries would go before their samples
  Status status = ValidateServerConfig(config);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("--summary-retention-days"), std::string::npos)
      << status.message();
  config.summary_retention_days = -1;
  EXPECT_FALSE(ValidateServerConfig(config).ok());
}

TEST(ServerConfigTest, PoolSizeMustBePositive) {
  ServerConfig config;
  config.database_url = "postgresql://x@h/db";
  config.pool_size = 0;
  EXPECT_NE(ValidateServerConfig(config).message().find("--pool-size"), std::string::npos);
}

TEST(ServerConfigTest, ScheduleFlagsParseAndAreChecked) {
  ServerConfig config = Parse({"--database-url", "postgresql://x@h/db", "--allow-open",
                               "--schedule-interval-seconds", "0.5",
                               "--schedule-missed-grace-seconds", "60"});
  EXPECT_EQ(config.schedule_interval_seconds, 0.5);
  EXPECT_EQ(config.schedule_missed_grace_seconds, 60);
  EXPECT_EQ(config.schedule_test_clock_anchor, 0) << "the real clock by default";
  EXPECT_TRUE(ValidateServerConfig(config).ok());
  config.schedule_interval_seconds = 0;
  EXPECT_NE(ValidateServerConfig(config).message().find("--schedule-interval-seconds"),
            std::string::npos);
  config.schedule_interval_seconds = 10;
  config.schedule_missed_grace_seconds = -1;
  EXPECT_NE(ValidateServerConfig(config).message().find("--schedule-missed-grace-seconds"),
            std::string::npos);
  config.schedule_missed_grace_seconds = 300;
  config.schedule_test_clock_anchor = 1.7e9;
  config.schedule_test_clock_speed = 0;
  EXPECT_NE(ValidateServerConfig(config).message().find("--schedule-test-clock"),
            std::string::npos);
}

TEST(ServerConfigTest, PerPrincipalLimitsParseAndAreChecked) {
  ServerConfig config = Parse({"--database-url", "postgresql://x@h/db", "--allow-open",
                               "--max-watch-streams-per-principal", "3", "--max-watch-seconds",
                               "60", "--max-parked-polls-per-principal", "8",
                               "--max-uploads-per-minute", "5", "--max-schedules-per-principal",
                               "7", "--min-schedule-interval-seconds", "900"});
  EXPECT_EQ(config.max_watch_streams_per_principal, 3);
  EXPECT_EQ(config.max_watch_seconds, 60);
  EXPECT_EQ(config.max_parked_polls_per_principal, 8);
  EXPECT_EQ(config.max_uploads_per_minute, 5);
  EXPECT_EQ(config.max_schedules_per_principal, 7);
  EXPECT_EQ(config.min_schedule_interval_seconds, 900);
  EXPECT_TRUE(ValidateServerConfig(config).ok());
  const std::vector<std::pair<std::function<void(ServerConfig&)>, std::string>> bad = {
      {[](ServerConfig& c) { c.max_watch_streams_per_principal = 0; },
       "--max-watch-streams-per-principal"},
      {[](ServerConfig& c) { c.max_watch_seconds = 0; }, "--max-watch-seconds"},
      {[](ServerConfig& c) { c.max_parked_polls_per_principal = 0; },
       "--max-parked-polls-per-principal"},
      {[](ServerConfig& c) { c.max_uploads_per_minute = 0; }, "--max-uploads-per-minute"},
      {[](ServerConfig& c) { c.max_schedules_per_principal = 0; },
       "--max-schedules-per-principal"},
      {[](ServerConfig& c) { c.min_schedule_interval_seconds = -1; },
       "--min-schedule-interval-seconds"},
  };
  for (const auto& [edit, flag] : bad) {
    ServerConfig c = config;
    edit(c);
    EXPECT_NE(ValidateServerConfig(c).message().find(flag), std::string::npos) << flag;
  }
}

}  // namespace
}  // namespace warpwatch::server
