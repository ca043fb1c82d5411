// File: cli/format/terminal_text.cc
#include "cli/format/terminal_text.h"

namespace warpwatch::cli {

std::string TerminalSafe(std::string_view text) {
  constexpr char kEsc = '\x1b';
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == kEsc) {
      if (i + 1 >= text.size()) break;
      const char kind = text[i + 1];
      if (kind == '[') {
        // CSI: parameters and intermediates up to a final byte in 0x40..0x7e.
        i += 2;
        while (i < text.size() && !(text[i] >= 0x40 && text[i] <= 0x7e)) ++i;
      } else if (kind == ']' || kind == 'P' || kind == '_' || kind == '^' || kind == 'X') {
        // OSC, DCS, APC, PM, SOS: up to BEL or ST (ESC \).
        i += 2;
        while (i < text.size() && text[i] != '\x07' &&
               !(text[i] == kEsc && i + 1 < text.size() && text[i + 1] == '\\')) {
          ++i;
        }
        if (i < text.size() && text[i] == kEsc) ++i;
      } else {
        ++i;  // a two-byte sequence (ESC c, ESC 7 ...)
      }
      continue;
    }
    if (c < 0x20 || c == 0x7f) {
      out += ' ';
      continue;
    }
    // C1 controls in UTF-8: 0xC2 0x80..0x9F (0x9B is a one-character CSI on some terminals).
    if (c == 0xc2 && i + 1 < text.size()) {
      const unsigned char next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9f) {
        out += ' ';
        ++i;
        continue;
      }
    }
    out += static_cast<char>(c);
  }
  return out;
}

}  // namespace warpwatch::cli
