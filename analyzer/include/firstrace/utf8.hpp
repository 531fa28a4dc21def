// UTF-8 validity, the one definition every output format's escaping uses (issue 13): names
// from a program or a trace (paths, functions, thread and variable names, source lines) are
// bytes, not necessarily UTF-8, and JSON, SARIF and HTML must be valid UTF-8 to parse.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace firstrace {

// The length (1-4) of the well-formed UTF-8 sequence at `text[at]` (Unicode 15, Table 3-7:
// no overlong forms, no surrogates, nothing above U+10FFFF), or 0 when the byte there does not
// start one.
inline std::size_t utf8_sequence_length(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
    const auto continuation = [&](std::size_t i, unsigned lo = 0x80, unsigned hi = 0xbf) {
        return at + i < text.size() && byte(i) >= lo && byte(i) <= hi;
    };
    const unsigned char lead = byte(0);
    if (lead < 0x80) return 1;
    if (lead >= 0xc2 && lead <= 0xdf) return continuation(1) ? 2 : 0;
    if (lead >= 0xe0 && lead <= 0xef) {
        const unsigned lo = lead == 0xe0 ? 0xa0 : 0x80, hi = lead == 0xed ? 0x9f : 0xbf;
        return continuation(1, lo, hi) && continuation(2) ? 3 : 0;
    }
    if (lead >= 0xf0 && lead <= 0xf4) {
        const unsigned lo = lead == 0xf0 ? 0x90 : 0x80, hi = lead == 0xf4 ? 0x8f : 0xbf;
        return continuation(1, lo, hi) && continuation(2) && continuation(3) ? 4 : 0;
    }
    return 0;
}

// U+FFFD, what JSON, SARIF, HTML and Markdown show for a byte that is not UTF-8.
inline constexpr std::string_view kReplacementCharacter = "\xef\xbf\xbd";

// The walk every output format's escaping shares: well-formed multi-byte sequences are copied,
// a byte that is not UTF-8 becomes U+FFFD, and each single-byte (ASCII) character is handed to
// `ascii(out, c)`, which appends its escaped form.
template <class EscapeAscii>
void append_utf8_escaped(std::string& out, std::string_view text, EscapeAscii&& ascii) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_sequence_length(text, i);
        if (n == 0) {
            out += kReplacementCharacter;
            ++i;
        } else if (n > 1) {
            out.append(text, i, n);
            i += n;
        } else {
            ascii(out, text[i]);
            ++i;
        }
    }
}

// `\xNN`: how the text report, HTML and Markdown show a control byte.
inline void append_hex_escape(std::string& out, unsigned char c) {
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
}

} // namespace firstrace
