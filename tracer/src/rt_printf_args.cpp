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
// %m (strerror(errno)) takes no argument. Positional arguments (`%1$s`, `*2$` widths and
// precisions, POSIX XSH fprintf) need every argument's type before the list can be walked: the
// format is parsed twice (walk_positional). An unknown conversion stops the walk (glibc prints
// it as text and takes no argument for it, but what follows is then unreliable).
#include "rt_printf_args.hpp"

#include "rt_library_call.hpp"

using namespace frt;

namespace {

// The bytes a string conversion reads: up to and including the terminator, at most `max`
// characters.
template <class Char> u64 string_bytes(const Char* s, u64 max) {
    return string_extent(s, max) * sizeof(Char);
}

enum class Length { kNone, kChar, kShort, kLong, kLongDouble };
// The type an argument is read as (va_arg): what the conversion or `*` takes.
enum class ArgType : u8 { kNone, kInt, kLongLong, kDouble, kLongDouble, kPointer };

// One conversion specification. A `*` width or precision takes an int argument: the next one
// (position 0 with `star`), or the one its `m$` names.
template <class Char> struct Spec {
    u32 position = 0; // the `n$` of the conversion, 0: the next argument
    bool width_star = false, precision_star = false;
    u32 width_position = 0, precision_position = 0;
    u64 precision = ~0ull; // a precision given in digits
    Length length = Length::kNone;
    Char conversion = 0;
};

// Parses the specification after a '%' at p, leaving p on its conversion character.
template <class Char> Spec<Char> parse(const Char*& p) {
    Spec<Char> spec;
    spec.position = argument_position(p);
    while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || *p == '0' || *p == '\'' || *p == 'I')
        ++p;
    if (*p == '*') {
        ++p;
        spec.width_star = true;
        spec.width_position = argument_position(p);
    } else {
        while (is_digit(*p))
            ++p;
    }
    if (*p == '.') {
        ++p;
        if (*p == '*') {
            ++p;
            spec.precision_star = true;
            spec.precision_position = argument_position(p);
        } else {
            spec.precision = 0;
            while (is_digit(*p))
                spec.precision = spec.precision * 10 + static_cast<u64>(*p++ - '0');
        }
    }
    if (*p == 'h') {
        spec.length = p[1] == 'h' ? Length::kChar : Length::kShort;
        p += p[1] == 'h' ? 2 : 1;
    } else if (*p == 'l') {
        spec.length = Length::kLong;
        p += p[1] == 'l' ? 2 : 1;
    } else if (*p == 'q' || *p == 'j' || *p == 'z' || *p == 'Z' || *p == 't') {
        spec.length = Length::kLong;
        ++p;
    } else if (*p == 'L') {
        spec.length = Length::kLongDouble;
        ++p;
    }
    spec.conversion = *p;
    return spec;
}

// What the conversion's argument is read as (kNone: `%%`, `%m`); false for a conversion the C
// library does not know (the walk stops there).
template <class Char> bool argument_type(const Spec<Char>& spec, ArgType& type) {
    const bool wide_length = spec.length == Length::kLong || spec.length == Length::kLongDouble;
    switch (spec.conversion) {
    case '%':
    case 'm':
        type = ArgType::kNone;
        return true;
    case 'd':
    case 'i':
    case 'o':
    case 'u':
    case 'x':
    case 'X':
    case 'b':
    case 'B':
        type = wide_length ? ArgType::kLongLong : ArgType::kInt;
        return true;
    case 'c':
    case 'C':
        type = ArgType::kInt; // char and wint_t are promoted to int
        return true;
    case 'a':
    case 'A':
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
        type = spec.length == Length::kLongDouble ? ArgType::kLongDouble : ArgType::kDouble;
        return true;
    case 'p':
    case 's':
    case 'S':
    case 'n':
        type = ArgType::kPointer;
        return true;
    default:
        return false;
    }
}

// Reads one argument of its type; the value of an integer or a pointer (floats: 0).
u64 take(va_list ap, ArgType type) {
    switch (type) {
    case ArgType::kInt:
        return static_cast<u64>(static_cast<i64>(va_arg(ap, int)));
    case ArgType::kLongLong:
        return static_cast<u64>(va_arg(ap, long long));
    case ArgType::kDouble:
        (void)va_arg(ap, double);
        return 0;
    case ArgType::kLongDouble:
        (void)va_arg(ap, long double);
        return 0;
    case ArgType::kPointer:
        return reinterpret_cast<u64>(va_arg(ap, void*));
    case ArgType::kNone:
        break;
    }
    return 0;
}

// What a conversion does to the program's memory through its argument (a pointer's value).
template <class Char>
void effect(ThreadState* t, u64 pc, const Spec<Char>& spec, u64 argument, u64 precision) {
    if (argument == 0) return; // a null %s prints "(null)", a null %n stores nothing
    switch (spec.conversion) {
    case 's':
    case 'S':
        if (spec.conversion == 'S' || spec.length == Length::kLong) {
            const auto* s = reinterpret_cast<const wchar_t*>(argument);
            library_access(t, pc, s, string_bytes(s, precision), false);
        } else {
            const auto* s = reinterpret_cast<const char*>(argument);
            library_access(t, pc, s, string_bytes(s, precision), false);
        }
        break;
    case 'n': {
        const u64 size = spec.length == Length::kChar    ? 1
                         : spec.length == Length::kShort ? sizeof(short)
                         : spec.length == Length::kLong  ? 8
                                                         : sizeof(int);
        library_access(t, pc, reinterpret_cast<void*>(argument), size, true);
        break;
    }
    default:
        break;
    }
}

// A precision taken from an int argument: negative means none.
u64 given_precision(u64 value) {
    const auto given = static_cast<i64>(static_cast<int>(value));
    return given >= 0 ? static_cast<u64>(given) : ~0ull;
}

// The arguments in order, each conversion taking the next ones.
template <class Char> void walk_in_order(ThreadState* t, u64 pc, const Char* format, va_list ap) {
    for (const Char* p = format; *p != 0; ++p) {
        if (*p != '%') continue;
        ++p;
        const Spec<Char> spec = parse(p);
        if (spec.width_star) (void)take(ap, ArgType::kInt);
        u64 precision = spec.precision;
        if (spec.precision_star) precision = given_precision(take(ap, ArgType::kInt));
        ArgType type;
        if (!argument_type(spec, type)) return; // the end of the format, or unknown
        if (type != ArgType::kNone) effect(t, pc, spec, take(ap, type), precision);
    }
}

// Positional arguments (`%2$s`, `*1$`; POSIX: then every conversion names its argument): the
// types of all arguments are gathered from the format first, the list is then read in order,
// and each conversion takes the values it names. Up to kPositions arguments; a format naming a
// later one, leaving one unnamed (its type unknown) or naming one with two types is not walked.
constexpr u32 kPositions = 64;
template <class Char> void walk_positional(ThreadState* t, u64 pc, const Char* format, va_list ap) {
    ArgType types[kPositions] = {};
    u32 count = 0;
    auto name = [&](u32 position, ArgType type) {
        if (position == 0 || position > kPositions) return false;
        ArgType& slot = types[position - 1];
        if (slot != ArgType::kNone && slot != type) return false;
        slot = type;
        count = position > count ? position : count;
        return true;
    };
    for (const Char* p = format; *p != 0; ++p) {
        if (*p != '%') continue;
        ++p;
        const Spec<Char> spec = parse(p);
        ArgType type;
        if (!argument_type(spec, type)) break;
        if (spec.width_star && !name(spec.width_position, ArgType::kInt)) return;
        if (spec.precision_star && !name(spec.precision_position, ArgType::kInt)) return;
        if (type != ArgType::kNone && !name(spec.position, type)) return;
    }
    u64 values[kPositions];
    for (u32 i = 0; i < count; ++i) {
        if (types[i] == ArgType::kNone) return;
        values[i] = take(ap, types[i]);
    }
    for (const Char* p = format; *p != 0; ++p) {
        if (*p != '%') continue;
        ++p;
        const Spec<Char> spec = parse(p);
        ArgType type;
        if (!argument_type(spec, type)) return;
        u64 precision = spec.precision;
        if (spec.precision_star) precision = given_precision(values[spec.precision_position - 1]);
        if (type != ArgType::kNone) effect(t, pc, spec, values[spec.position - 1], precision);
    }
}

template <class Char> bool has_positional_argument(const Char* f) {
    for (const Char* p = f; *p != 0; ++p) {
        if (*p != '%') continue;
        ++p;
        if (argument_position(p) != 0) return true;
        if (*p == 0) break;
    }
    return false;
}

template <class Char> void arguments(u64 pc, const Char* format, va_list ap) {
    if (format == nullptr) return;
    InterceptorScope scope(program_call(pc));
    if (!scope) return;
    library_access(scope.thread(), pc, format, string_bytes(format, ~0ull), false);
    if (has_positional_argument(format))
        walk_positional(scope.thread(), pc, format, ap);
    else
        walk_in_order(scope.thread(), pc, format, ap);
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
