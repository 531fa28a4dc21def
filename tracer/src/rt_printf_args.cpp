// The arguments of the printf family (C11 7.21.6.1, 7.29.2.1; glibc's extensions), walked as the
// C library walks them: a conversion specification is
//
//   %[flags][width][.precision][length]conversion
//     flags      - + space # 0 ' I
//     width      digits, or * (an int argument)
//     precision  . digits, or .* (an int argument; negative: none)
//     length     hh h l ll q L j z Z t
//
// and each conversion takes its argument of the type the length gives (int-sized or 8-byte
// integers, double, long double, pointers). What the call does to the program's memory through
// them (as ThreadSanitizer's printf_common, with check_printf on):
//
//   the format   read up to its terminator;
//   %s           the string read up to its terminator, or `precision` bytes when it has none
//                before (a null pointer prints "(null)": nothing);
//   %ls, %S      the wide string, counted the same way in wide characters;
//   %n           a write of the integer of the length's size (hh: char, h: short, l/ll/j/z/t:
//                8 bytes, else int).
//
// %m (strerror(errno)) takes no argument. A positional argument (%1$s) needs every argument's
// type before walking the list: such a format is read, its arguments are not walked. An unknown
// conversion stops the walk (glibc prints it as text and takes no argument for it, but what
// follows is then unreliable).
#include "rt_printf_args.hpp"

#include "rt_library_call.hpp"

using namespace frt;

namespace {

// The bytes a string conversion reads: up to and including the terminator, at most `max`
// characters.
template <class Char> u64 string_bytes(const Char* s, u64 max) {
    return string_extent(s, max) * sizeof(Char);
}

template <class Char> bool is_digit(Char c) {
    return c >= '0' && c <= '9';
}

template <class Char> bool has_positional_argument(const Char* f) {
    for (const Char* p = f; *p != 0; ++p) {
        if (*p != '%') continue;
        ++p;
        while (is_digit(*p) || *p == '*' || *p == '.')
            ++p;
        if (*p == '$') return true;
        if (*p == 0) break;
    }
    return false;
}

// Takes one argument of type T (its value is not needed).
template <class T> void skip(va_list ap) {
    (void)va_arg(ap, T);
}

enum class Length { kNone, kChar, kShort, kLong, kLongDouble };

template <class Char> void walk(ThreadState* t, u64 pc, const Char* format, va_list ap) {
    for (const Char* p = format; *p != 0; ++p) {
        if (*p != '%') continue;
        ++p;
        while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || *p == '0' || *p == '\'' ||
               *p == 'I')
            ++p;
        if (*p == '*') {
            (void)va_arg(ap, int);
            ++p;
        } else {
            while (is_digit(*p))
                ++p;
        }
        u64 precision = ~0ull;
        if (*p == '.') {
            ++p;
            if (*p == '*') {
                const int given = va_arg(ap, int);
                if (given >= 0) precision = static_cast<u64>(given);
                ++p;
            } else {
                precision = 0;
                while (is_digit(*p))
                    precision = precision * 10 + static_cast<u64>(*p++ - '0');
            }
        }
        Length length = Length::kNone;
        if (*p == 'h') {
            length = p[1] == 'h' ? Length::kChar : Length::kShort;
            p += p[1] == 'h' ? 2 : 1;
        } else if (*p == 'l') {
            length = Length::kLong;
            p += p[1] == 'l' ? 2 : 1;
        } else if (*p == 'q' || *p == 'j' || *p == 'z' || *p == 'Z' || *p == 't') {
            length = Length::kLong;
            ++p;
        } else if (*p == 'L') {
            length = Length::kLongDouble;
            ++p;
        }
        switch (*p) {
        case '%':
        case 'm':
            break;
        case 'd':
        case 'i':
        case 'o':
        case 'u':
        case 'x':
        case 'X':
        case 'b':
        case 'B':
            (length == Length::kLong || length == Length::kLongDouble ? skip<long long>
                                                                      : skip<int>)(ap);
            break;
        case 'c':
        case 'C':
            (void)va_arg(ap, int); // char and wint_t are promoted to int
            break;
        case 'a':
        case 'A':
        case 'e':
        case 'E':
        case 'f':
        case 'F':
        case 'g':
        case 'G':
            (length == Length::kLongDouble ? skip<long double> : skip<double>)(ap);
            break;
        case 'p':
            (void)va_arg(ap, void*);
            break;
        case 's':
        case 'S':
            if (*p == 'S' || length == Length::kLong) {
                if (const auto* s = va_arg(ap, const wchar_t*))
                    library_access(t, pc, s, string_bytes(s, precision), false);
            } else if (const auto* s = va_arg(ap, const char*)) {
                library_access(t, pc, s, string_bytes(s, precision), false);
            }
            break;
        case 'n':
            if (void* out = va_arg(ap, void*)) {
                const u64 size = length == Length::kChar    ? 1
                                 : length == Length::kShort ? sizeof(short)
                                 : length == Length::kLong  ? 8
                                                            : sizeof(int);
                library_access(t, pc, out, size, true);
            }
            break;
        default: // the end of the format, or a conversion the C library does not know
            return;
        }
    }
}

template <class Char> void arguments(u64 pc, const Char* format, va_list ap) {
    if (format == nullptr) return;
    InterceptorScope scope(program_call(pc));
    if (!scope) return;
    library_access(scope.thread(), pc, format, string_bytes(format, ~0ull), false);
    if (!has_positional_argument(format)) walk(scope.thread(), pc, format, ap);
}

} // namespace

namespace frt {

void printf_arguments(u64 pc, const char* format, va_list ap) {
    arguments(pc, format, ap);
}
void wprintf_arguments(u64 pc, const wchar_t* format, va_list ap) {
    arguments(pc, format, ap);
}

} // namespace frt
