// A minimal streaming JSON writer: commas and string escaping, nothing else.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace firstrace {

class JsonWriter {
  public:
    explicit JsonWriter(std::ostream& out) : out_(out) {}

    JsonWriter& begin_object() { return open('{'); }
    JsonWriter& end_object() { return close('}'); }
    JsonWriter& begin_array() { return open('['); }
    JsonWriter& end_array() { return close(']'); }
    JsonWriter& key(std::string_view k) {
        separate();
        string(k);
        out_ << ':';
        after_key_ = true;
        return *this;
    }
    JsonWriter& value(std::string_view s) {
        separate();
        string(s);
        return *this;
    }
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(bool b) {
        separate();
        out_ << (b ? "true" : "false");
        return *this;
    }
    JsonWriter& value(std::uint64_t v) {
        separate();
        out_ << v;
        return *this;
    }
    JsonWriter& value(std::uint32_t v) { return value(static_cast<std::uint64_t>(v)); }
    JsonWriter& value(std::int64_t v) {
        separate();
        out_ << v;
        return *this;
    }
    JsonWriter& value(double v) {
        separate();
        out_ << v;
        return *this;
    }
    JsonWriter& null() {
        separate();
        out_ << "null";
        return *this;
    }
    // A line break before the next element, for readable long arrays.
    JsonWriter& newline() {
        newline_ = true;
        return *this;
    }

    static void escape(std::ostream& out, std::string_view s) {
        static const char* hex = "0123456789abcdef";
        for (unsigned char c : s) {
            switch (c) {
            case '"':
                out << "\\\"";
                break;
            case '\\':
                out << "\\\\";
                break;
            case '\n':
                out << "\\n";
                break;
            case '\r':
                out << "\\r";
                break;
            case '\t':
                out << "\\t";
                break;
            default:
                if (c < 0x20)
                    out << "\\u00" << hex[c >> 4] << hex[c & 15];
                else
                    out << static_cast<char>(c);
            }
        }
    }

  private:
    JsonWriter& open(char c) {
        separate();
        out_ << c;
        first_.push_back(true);
        return *this;
    }
    JsonWriter& close(char c) {
        first_.pop_back();
        out_ << c;
        return *this;
    }
    void separate() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (!first_.empty()) {
            if (!first_.back()) out_ << ',';
            first_.back() = false;
        }
        if (newline_) {
            out_ << '\n';
            newline_ = false;
        }
    }
    void string(std::string_view s) {
        out_ << '"';
        escape(out_, s);
        out_ << '"';
    }

    std::ostream& out_;
    std::vector<bool> first_;
    bool after_key_ = false;
    bool newline_ = false;
};

} // namespace firstrace
