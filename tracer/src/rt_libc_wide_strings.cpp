// Wide-character strings and the conversions between multibyte and wide characters (C11 7.29.4,
// 7.29.6, 7.22.7-8; POSIX iconv): the bytes a call reads and writes are accesses at the caller's
// program counter, as for the byte strings (rt_libc_memory.cpp has wmemcpy, wmemset, wcslen).
//
//   wcscpy, wcsncpy, wcscat, wcsncat  source read (up to its terminator or n), destination
//                                     written (what they store, wcsncpy: all n);
//   wcscmp, wcsncmp, wmemcmp          both strings up to the first difference (wmemcmp: all n);
//   wcsdup, wcsnlen, wmemmove         the source read (wmemmove: and the destination written);
//   mbstowcs, wcstombs                the characters stored (and the terminator when there was
//                                     room), the source up to its terminator when all of it was
//                                     converted (otherwise the bytes it took are not known here:
//                                     none recorded);
//   mbsrtowcs, wcsrtombs              the same, and *src (moved on) and the conversion state;
//   mbsnrtowcs, wcsnrtombs            the same with the source at most its limit long;
//   wcsxfrm, wcsxfrm_l                the source read whole, what they store written;
//   mbrtowc, mbtowc                   the bytes of the character read, the wide character
//                                     written; wcrtomb, wctomb: the bytes stored;
//   iconv                             the input bytes it consumed read, the output it produced
//                                     written, and the four pointers/counters it moves on.
// Only from threads the runtime already knows, never from inside the runtime.
#include <iconv.h>
#include <stdlib.h>
#include <wchar.h>

#include "rt_real.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {

FRT_DECLARE_REAL(wcscpy);
FRT_DECLARE_REAL(wcsncpy);
FRT_DECLARE_REAL(wcscat);
FRT_DECLARE_REAL(wcsncat);
FRT_DECLARE_REAL(wcscmp);
FRT_DECLARE_REAL(wcsncmp);
FRT_DECLARE_REAL(wmemcmp);
FRT_DECLARE_REAL(wcsdup);
FRT_DECLARE_REAL(wcsnlen);
FRT_DECLARE_REAL(wmemmove);
FRT_DECLARE_REAL(mbstowcs);
FRT_DECLARE_REAL(wcstombs);
FRT_DECLARE_REAL(mbsrtowcs);
FRT_DECLARE_REAL(wcsrtombs);
FRT_DECLARE_REAL(mbsnrtowcs);
FRT_DECLARE_REAL(wcsnrtombs);
FRT_DECLARE_REAL(wcsxfrm);
FRT_DECLARE_REAL(wcsxfrm_l);
FRT_DECLARE_REAL(mbrtowc);
FRT_DECLARE_REAL(mbtowc);
FRT_DECLARE_REAL(wcrtomb);
FRT_DECLARE_REAL(wctomb);
FRT_DECLARE_REAL(iconv);

constexpr u64 kWide = sizeof(wchar_t);
constexpr size_t kFailed = static_cast<size_t>(-1);

using Strings = LibraryCall;

// wcscmp & co.: wide characters compared up to the first difference or terminator (at most max).
u64 compared(const wchar_t* a, const wchar_t* b, u64 max) {
    u64 i = 0;
    while (i < max && a[i] != 0 && a[i] == b[i])
        ++i;
    return i < max ? i + 1 : max;
}

// A conversion that stored r characters of `out_size` bytes into dst (room for n): those and
// the terminator when r < n; the source read whole (with its terminator) when it was all
// converted or only measured.
// (mbsnrtowcs, wcsnrtombs: the source is at most src_max characters.)
template <class In>
void converted(u64 pc, const In* src, const void* dst, size_t n, size_t r, u64 out_size,
               u64 src_max = ~0ull) {
    Strings s(pc);
    if (!s || r == kFailed) return;
    if (dst != nullptr) s.bytes(dst, (r + (r < n ? 1 : 0)) * out_size, true);
    if (src != nullptr && (dst == nullptr || r < n))
        s.bytes(src, string_extent(src, src_max) * sizeof(In), false);
}
// The restartable conversions: converted, and *src (moved on) and the state written when they
// stored into dst.
template <class In>
void converted_restartable(u64 pc, const In* from, const void* dst, size_t n, size_t r,
                           u64 out_size, const In* const* src, const mbstate_t* ps,
                           u64 src_max = ~0ull) {
    converted(pc, from, dst, n, r, out_size, src_max);
    if (Strings c(pc); c && dst != nullptr) {
        c.bytes(src, sizeof *src, true);
        c.bytes(ps, sizeof *ps, true);
    }
}

} // namespace

// --- wide strings --------------------------------------------------------------------------------

FRT_EXPORT wchar_t* wcscpy(wchar_t* d, const wchar_t* s) {
    if (Strings c(FRT_CALLER()); c) {
        const u64 n = string_extent(s, ~0ull) * kWide;
        c.bytes(s, n, false);
        c.bytes(d, n, true);
    }
    return REAL(wcscpy)(d, s);
}
FRT_EXPORT wchar_t* wcsncpy(wchar_t* d, const wchar_t* s, size_t n) {
    if (Strings c(FRT_CALLER()); c) {
        c.bytes(s, string_extent(s, n) * kWide, false);
        c.bytes(d, n * kWide, true);
    }
    return REAL(wcsncpy)(d, s, n);
}
FRT_EXPORT wchar_t* wcscat(wchar_t* d, const wchar_t* s) {
    if (Strings c(FRT_CALLER()); c) {
        const u64 dn = string_length(d, ~0ull);
        const u64 n = string_extent(s, ~0ull);
        c.bytes(d, dn * kWide, false);
        c.bytes(s, n * kWide, false);
        c.bytes(d + dn, n * kWide, true);
    }
    return REAL(wcscat)(d, s);
}
FRT_EXPORT wchar_t* wcsncat(wchar_t* d, const wchar_t* s, size_t n) {
    if (Strings c(FRT_CALLER()); c) {
        const u64 dn = string_length(d, ~0ull);
        const u64 sn = string_length(s, n);
        c.bytes(d, dn * kWide, false);
        c.bytes(s, string_extent(s, n) * kWide, false);
        c.bytes(d + dn, (sn + 1) * kWide, true);
    }
    return REAL(wcsncat)(d, s, n);
}
FRT_EXPORT int wcscmp(const wchar_t* a, const wchar_t* b) {
    if (Strings c(FRT_CALLER()); c) {
        const u64 n = compared(a, b, ~0ull) * kWide;
        c.bytes(a, n, false);
        c.bytes(b, n, false);
    }
    return REAL(wcscmp)(a, b);
}
FRT_EXPORT int wcsncmp(const wchar_t* a, const wchar_t* b, size_t max) {
    if (Strings c(FRT_CALLER()); c) {
        const u64 n = compared(a, b, max) * kWide;
        c.bytes(a, n, false);
        c.bytes(b, n, false);
    }
    return REAL(wcsncmp)(a, b, max);
}
FRT_EXPORT int wmemcmp(const wchar_t* a, const wchar_t* b, size_t n) {
    if (Strings c(FRT_CALLER()); c) {
        c.bytes(a, n * kWide, false);
        c.bytes(b, n * kWide, false);
    }
    return REAL(wmemcmp)(a, b, n);
}
FRT_EXPORT wchar_t* wcsdup(const wchar_t* s) {
    if (Strings c(FRT_CALLER()); c) c.bytes(s, string_extent(s, ~0ull) * kWide, false);
    ProgramAllocations program(FRT_CALLER());
    return REAL(wcsdup)(s);
}
FRT_EXPORT size_t wcsnlen(const wchar_t* s, size_t max) {
    if (Strings c(FRT_CALLER()); c) c.bytes(s, string_extent(s, max) * kWide, false);
    return REAL(wcsnlen)(s, max);
}
FRT_EXPORT wchar_t* wmemmove(wchar_t* d, const wchar_t* s, size_t n) {
    if (Strings c(FRT_CALLER()); c) {
        c.bytes(s, n * kWide, false);
        c.bytes(d, n * kWide, true);
    }
    return REAL(wmemmove)(d, s, n);
}

// --- multibyte and wide conversions ------------------------------------------------------------

FRT_EXPORT size_t mbstowcs(wchar_t* dst, const char* src, size_t n) {
    const size_t r = REAL(mbstowcs)(dst, src, n);
    converted(FRT_CALLER(), src, dst, n, r, kWide);
    return r;
}
FRT_EXPORT size_t wcstombs(char* dst, const wchar_t* src, size_t n) {
    const size_t r = REAL(wcstombs)(dst, src, n);
    converted(FRT_CALLER(), src, dst, n, r, 1);
    return r;
}
FRT_EXPORT size_t mbsrtowcs(wchar_t* dst, const char** src, size_t n, mbstate_t* ps) {
    const char* from = src != nullptr ? *src : nullptr;
    const size_t r = REAL(mbsrtowcs)(dst, src, n, ps);
    converted_restartable(FRT_CALLER(), from, dst, n, r, kWide, src, ps);
    return r;
}
FRT_EXPORT size_t mbsnrtowcs(wchar_t* dst, const char** src, size_t max, size_t n, mbstate_t* ps) {
    const char* from = src != nullptr ? *src : nullptr;
    const size_t r = REAL(mbsnrtowcs)(dst, src, max, n, ps);
    converted_restartable(FRT_CALLER(), from, dst, n, r, kWide, src, ps, max);
    return r;
}
FRT_EXPORT size_t wcsrtombs(char* dst, const wchar_t** src, size_t n, mbstate_t* ps) {
    const wchar_t* from = src != nullptr ? *src : nullptr;
    const size_t r = REAL(wcsrtombs)(dst, src, n, ps);
    converted_restartable(FRT_CALLER(), from, dst, n, r, 1, src, ps);
    return r;
}
FRT_EXPORT size_t wcsnrtombs(char* dst, const wchar_t** src, size_t max, size_t n, mbstate_t* ps) {
    const wchar_t* from = src != nullptr ? *src : nullptr;
    const size_t r = REAL(wcsnrtombs)(dst, src, max, n, ps);
    converted_restartable(FRT_CALLER(), from, dst, n, r, 1, src, ps, max);
    return r;
}
FRT_EXPORT size_t wcsxfrm(wchar_t* d, const wchar_t* s, size_t n) {
    return collation_transformed(FRT_CALLER(), d, s, n, [&] { return REAL(wcsxfrm)(d, s, n); });
}
FRT_EXPORT size_t wcsxfrm_l(wchar_t* d, const wchar_t* s, size_t n, locale_t locale) {
    return collation_transformed(FRT_CALLER(), d, s, n,
                                 [&] { return REAL(wcsxfrm_l)(d, s, n, locale); });
}
FRT_EXPORT size_t mbrtowc(wchar_t* pwc, const char* s, size_t n, mbstate_t* ps) {
    const size_t r = REAL(mbrtowc)(pwc, s, n, ps);
    if (Strings c(FRT_CALLER()); c && s != nullptr && r <= n) {
        c.bytes(s, r == 0 ? 1 : r, false);
        c.bytes(pwc, sizeof *pwc, true);
        c.bytes(ps, sizeof *ps, true);
    }
    return r;
}
FRT_EXPORT int mbtowc(wchar_t* pwc, const char* s, size_t n) {
    const int r = REAL(mbtowc)(pwc, s, n);
    if (Strings c(FRT_CALLER()); c && s != nullptr && r >= 0) {
        c.bytes(s, r == 0 ? 1 : static_cast<u64>(r), false);
        c.bytes(pwc, sizeof *pwc, true);
    }
    return r;
}
FRT_EXPORT size_t wcrtomb(char* s, wchar_t wc, mbstate_t* ps) {
    const size_t r = REAL(wcrtomb)(s, wc, ps);
    if (Strings c(FRT_CALLER()); c && s != nullptr && r != kFailed) {
        c.bytes(s, r, true);
        c.bytes(ps, sizeof *ps, true);
    }
    return r;
}
FRT_EXPORT int wctomb(char* s, wchar_t wc) {
    const int r = REAL(wctomb)(s, wc);
    if (Strings c(FRT_CALLER()); c && s != nullptr && r > 0) c.bytes(s, static_cast<u64>(r), true);
    return r;
}
FRT_EXPORT size_t iconv(iconv_t cd, char** in, size_t* in_left, char** out, size_t* out_left) {
    const char* in0 = in != nullptr ? *in : nullptr;
    const char* out0 = out != nullptr ? *out : nullptr;
    const size_t r = REAL(iconv)(cd, in, in_left, out, out_left);
    if (Strings c(FRT_CALLER()); c) {
        if (in0 != nullptr) {
            c.bytes(in0, static_cast<u64>(*in - in0), false);
            c.bytes(in, sizeof *in, true);
            c.bytes(in_left, sizeof *in_left, true);
        }
        if (out0 != nullptr) {
            c.bytes(out0, static_cast<u64>(*out - out0), true);
            c.bytes(out, sizeof *out, true);
            c.bytes(out_left, sizeof *out_left, true);
        }
    }
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(wcscpy)
FRT_INTERCEPTOR_ALIAS(wcsncpy)
FRT_INTERCEPTOR_ALIAS(wcscat)
FRT_INTERCEPTOR_ALIAS(wcsncat)
FRT_INTERCEPTOR_ALIAS(wcscmp)
FRT_INTERCEPTOR_ALIAS(wcsncmp)
FRT_INTERCEPTOR_ALIAS(wmemcmp)
FRT_INTERCEPTOR_ALIAS(wcsdup)
FRT_INTERCEPTOR_ALIAS(wcsnlen)
FRT_INTERCEPTOR_ALIAS(wmemmove)
FRT_INTERCEPTOR_ALIAS(mbstowcs)
FRT_INTERCEPTOR_ALIAS(wcstombs)
FRT_INTERCEPTOR_ALIAS(mbsrtowcs)
FRT_INTERCEPTOR_ALIAS(wcsrtombs)
FRT_INTERCEPTOR_ALIAS(mbsnrtowcs)
FRT_INTERCEPTOR_ALIAS(wcsnrtombs)
FRT_INTERCEPTOR_ALIAS(wcsxfrm)
FRT_INTERCEPTOR_ALIAS(wcsxfrm_l)
FRT_INTERCEPTOR_ALIAS(mbrtowc)
FRT_INTERCEPTOR_ALIAS(mbtowc)
FRT_INTERCEPTOR_ALIAS(wcrtomb)
FRT_INTERCEPTOR_ALIAS(wctomb)
FRT_INTERCEPTOR_ALIAS(iconv)
