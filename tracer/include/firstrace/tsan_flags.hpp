// ThreadSanitizer's run-time flag strings ("report_bugs=0 suppressions='a b.supp'"), read as
// sanitizer_common's FlagParser reads them (sanitizer_flag_parser.cpp): flags separated by
// spaces, tabs, newlines, ',' or ':'; `name=value`, the value optionally in '...' or "...";
// a later setting of a name overrides an earlier one. TSan parses __tsan_default_options()
// first and TSAN_OPTIONS after it, so the environment wins.
//
// Freestanding (no allocation): the runtime uses it at start-up to find suppressions=, the
// analyzer for the flags that decide what it reports (tsan_configuration.hpp).
#pragma once

#include <cstddef>
#include <cstring>

namespace firstrace::format {

inline bool is_tsan_flag_separator(char c) {
    return c == ' ' || c == ',' || c == ':' || c == '\n' || c == '\t' || c == '\r';
}

// The value of the last setting of `name` in `options` (null: none): *value and *length
// describe it inside `options`. A malformed tail (a name without '=', an unterminated quote)
// ends the scan, as it ends TSan's parser (which then dies).
inline bool find_tsan_flag(const char* options, const char* name, const char** value,
                           std::size_t* length) {
    if (options == nullptr) return false;
    const std::size_t name_length = std::strlen(name);
    bool found = false;
    const char* p = options;
    for (;;) {
        while (*p != 0 && is_tsan_flag_separator(*p))
            ++p;
        if (*p == 0) return found;
        const char* name_start = p;
        while (*p != 0 && *p != '=' && !is_tsan_flag_separator(*p))
            ++p;
        if (*p != '=') return found;
        const bool wanted = static_cast<std::size_t>(p - name_start) == name_length &&
                            std::memcmp(name_start, name, name_length) == 0;
        ++p;
        const char* v = p;
        if (*p == '\'' || *p == '"') {
            const char quote = *p++;
            v = p;
            while (*p != 0 && *p != quote)
                ++p;
            if (*p == 0) return found;
        } else {
            while (*p != 0 && !is_tsan_flag_separator(*p))
                ++p;
        }
        if (wanted) {
            *value = v;
            *length = static_cast<std::size_t>(p - v);
            found = true;
        }
        if (*p == '\'' || *p == '"') ++p; // the closing quote
    }
}

// A boolean flag's value as sanitizer_common parses one: 0/no/false, 1/yes/true; -1 otherwise.
inline int tsan_flag_bool(const char* value, std::size_t length) {
    auto is = [&](const char* word) {
        return std::strlen(word) == length && std::memcmp(value, word, length) == 0;
    };
    if (is("0") || is("no") || is("false")) return 0;
    if (is("1") || is("yes") || is("true")) return 1;
    return -1;
}

} // namespace firstrace::format
