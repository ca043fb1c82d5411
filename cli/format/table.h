// File: cli/format/table.h
// Left-aligned text tables for people: a header row, then rows, columns padded to fit.
#ifndef WARPWATCH_CLI_FORMAT_TABLE_H_
#define WARPWATCH_CLI_FORMAT_TABLE_H_

#include <ostream>
#include <string>
#include <vector>

namespace warpwatch::cli {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}

  // Rows shorter than the header are padded with empty cells; longer ones are cut.
  void AddRow(std::vector<std::string> row);
  size_t rows() const { return rows_.size(); }

  // Columns separated by two spaces; trailing spaces trimmed.
  void Print(std::ostream& out) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_TABLE_H_
