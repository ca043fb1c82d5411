// File: tests/server/store/connection_pool_settings_test.cc
// What every pooled connection runs with (server/store/detail/connection_pool.h), against a real
// PostgreSQL: JIT off, and the pool's statement_timeout.
#include <gtest/gtest.h>

#include <chrono>
#include <pqxx/pqxx>
#include <string>

#include "server/store/detail/connection_pool.h"
#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

class ConnectionPoolSettingsTest : public StoreTest {
 protected:
  static std::string Show(pqxx::connection& conn, const std::string& setting) {
    pqxx::nontransaction tx(conn);
    return tx.exec("SHOW " + setting).at(0).at(0).as<std::string>();
  }
};

TEST_F(ConnectionPoolSettingsTest, APooledConnectionRunsWithoutJitAndWithThePoolsTimeout) {
  pqxx::connection plain(url_);
  ASSERT_EQ(Show(plain, "jit"), "on");  // PostgreSQL's default: what the pool turns off
  detail::PoolOptions options;
  options.url = url_;
  options.statement_timeout = std::chrono::milliseconds(1234);
  detail::ConnectionPool pool(options);
  StatusOr<detail::ConnectionPool::Handle> handle = pool.Acquire();
  ASSERT_TRUE(handle.ok()) << handle.status().ToString();
  EXPECT_EQ(Show(handle->conn(), "jit"), "off");
  EXPECT_EQ(Show(handle->conn(), "statement_timeout"), "1234ms");
}

TEST_F(ConnectionPoolSettingsTest, WithoutAStatementTimeoutTheServersDefaultStays) {
  detail::PoolOptions options;
  options.url = url_;
  detail::ConnectionPool pool(options);
  StatusOr<detail::ConnectionPool::Handle> handle = pool.Acquire();
  ASSERT_TRUE(handle.ok()) << handle.status().ToString();
  pqxx::connection plain(url_);
  EXPECT_EQ(Show(handle->conn(), "statement_timeout"), Show(plain, "statement_timeout"));
  EXPECT_EQ(Show(handle->conn(), "jit"), "off");
}

}  // namespace
}  // namespace warpwatch::server::testing
