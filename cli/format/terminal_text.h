// File: cli/format/terminal_text.h
// Text that came from workers or users (Job.current_case, Job.error, hostnames) made safe to
// print on a terminal: it must not move the cursor, recolour, retitle the window or hide what
// follows. Every such field goes through TerminalSafe before it is printed for people (--json
// output is escaped by the JSON encoder and is left alone).
#ifndef WARPWATCH_CLI_FORMAT_TERMINAL_TEXT_H_
#define WARPWATCH_CLI_FORMAT_TERMINAL_TEXT_H_

#include <string>
#include <string_view>

namespace warpwatch::cli {

// `text` without escape sequences (ESC [ ... final byte, ESC ] ... BEL or ESC \, any other
// ESC x), with other control characters (C0 incl. CR/LF/TAB, DEL, and UTF-8 encoded C1) turned
// into spaces. Printable UTF-8 is kept as is.
std::string TerminalSafe(std::string_view text);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_TERMINAL_TEXT_H_
