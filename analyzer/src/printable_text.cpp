#include "firstrace/printable_text.hpp"

#include "firstrace/utf8.hpp"

namespace firstrace {

// C0 controls and DEL, C1 controls (U+0080-U+009F: a terminal may take U+009B for CSI) and
// bytes that are not UTF-8 (a terminal in an 8-bit mode takes 0x9b for CSI) are written as
// \xNN, one per byte; everything else as it is.
std::string printable_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    const auto escape = [&](unsigned char c) { append_hex_escape(out, c); };
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t n = utf8_sequence_length(text, i);
        if (n == 0 || c < 0x20 || c == 0x7f) {
            escape(c);
            ++i;
        } else if (c == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0) {
            escape(c);
            escape(static_cast<unsigned char>(text[i + 1]));
            i += 2;
        } else {
            out.append(text, i, n);
            i += n;
        }
    }
    return out;
}

} // namespace firstrace
