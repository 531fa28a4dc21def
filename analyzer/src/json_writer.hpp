// A minimal JSON writer: commas and string escaping, nothing else. It appends to a buffer
// written out in large blocks (and by flush() / the destructor): JSON and SARIF reports of 10^6
// races are hundreds of megabytes, too slow to stream character by character.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "firstrace/utf8.hpp"

namespace firstrace {

class JsonWriter {
  public:
    explicit JsonWriter(std::ostream& out) : out_(out) { buffer_.reserve(kFlush + 4096); }
    ~JsonWriter() { flush(); }
    JsonWriter& begin_object() { return open('{'); }
    JsonWriter& end_object() { return close('}'); }
    JsonWriter& begin_array() { return open('['); }
    JsonWriter& end_array() { return close(']'); }
    JsonWriter& key(std::string_view k) {
        separate();
        string(k);
        buffer_ += ':';
        after_key_ = true;
        return *this;
    }
    JsonWriter& value(std::string_view v) {
        separate();
        string(v);
        return *this;
    }
    JsonWriter& value(const char* v) { return value(std::string_view(v)); }
    JsonWriter& value(const std::string& v) { return value(std::string_view(v)); }
    JsonWriter& value(bool b) {
        separate();
        buffer_ += b ? "true" : "false";
        return *this;
    }
    JsonWriter& value(std::uint64_t v) {
        separate();
        buffer_ += std::to_string(v);
        return *this;
    }
    JsonWriter& value(std::uint32_t v) { return value(static_cast<std::uint64_t>(v)); }
    JsonWriter& value(std::int64_t v) {
        separate();
        buffer_ += std::to_string(v);
        return *this;
    }
    JsonWriter& value(double v) {
        separate();
        buffer_ += std::to_string(v);
        return *this;
    }
    JsonWriter& null() {
        separate();
        buffer_ += "null";
        return *this;
    }
    // A line break before the next element, for readable long arrays.
    JsonWriter& newline() {
        newline_ = true;
        return *this;
    }
    void flush() {
        out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
        buffer_.clear();
    }

  private:
    static constexpr std::size_t kFlush = 1 << 20;
    JsonWriter& open(char c) {
        separate();
        buffer_ += c;
        first_.push_back(true);
        return *this;
    }
    JsonWriter& close(char c) {
        first_.pop_back();
        buffer_ += c;
        if (buffer_.size() >= kFlush) flush();
        return *this;
    }
    void separate() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (!first_.empty()) {
            if (!first_.back()) buffer_ += ',';
            first_.back() = false;
        }
        if (newline_) {
            buffer_ += '\n';
            newline_ = false;
        }
    }
    // The one JSON string escaping (JSON and SARIF reports, the store's JSON columns): quotes,
    // backslashes and C0 controls escaped; a byte that is not UTF-8 becomes U+FFFD, since a
    // JSON text must be UTF-8 (RFC 8259 section 8.1) and names from a trace need not be.
    void string(std::string_view s) {
        buffer_ += '"';
        append_utf8_escaped(buffer_, s, [](std::string& o, char ch) {
            static constexpr char kHex[] = "0123456789abcdef";
            const auto c = static_cast<unsigned char>(ch);
            switch (c) {
            case '"':
                o += "\\\"";
                break;
            case '\\':
                o += "\\\\";
                break;
            case '\n':
                o += "\\n";
                break;
            case '\r':
                o += "\\r";
                break;
            case '\t':
                o += "\\t";
                break;
            default:
                if (c < 0x20) {
                    o += "\\u00";
                    o += kHex[c >> 4];
                    o += kHex[c & 15];
                } else {
                    o += ch;
                }
            }
        });
        buffer_ += '"';
    }

    std::ostream& out_;
    std::string buffer_;
    std::vector<bool> first_;
    bool after_key_ = false;
    bool newline_ = false;
};

} // namespace firstrace
