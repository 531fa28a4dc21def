// The system databases read entry by entry, and the databases not covered by the lookups of
// rt_libc_user_db.cpp: the non-reentrant forms return storage the C library owns and overwrites
// at the next call (XSH 2.9.1 lists getgrent, gethostent, getnetbyaddr, getnetbyname, getnetent,
// getprotoent, getpwent, getutxent, getutxid, getutxline among the functions that need not be
// thread-safe; glibc: MT-Unsafe race:mntentbuf, race:netbyname, race:etherbuf, race:utent, ...).
// Each such call writes its whole result (rt_library_lookup.hpp), so two threads calling them
// race, and a thread reading a result races with another thread's next call that nothing orders
// after the read. The _r forms write the caller's structure, the strings they store in the
// caller's buffer, and *result.
//
//   hosts       gethostent; gethostent_r (also *h_errnop)
//   networks    getnetent, getnetbyname, getnetbyaddr
//   protocols   getprotoent; getprotoent_r, getprotobyname_r, getprotobynumber_r
//   users       getpwent_r, fgetpwent, fgetpwent_r; getgrent_r, fgetgrent, fgetgrent_r
//   mounts      getmntent (glibc: one static entry and line buffer for every stream);
//               getmntent_r (the caller's entry and buffer)
//   logins      getutent, getutid, getutline, getutxent, getutxid, getutxline (one static
//               struct utmp; getutid/getutline read the key entry)
//   ethernet    ether_ntoa, ether_aton (a static text / address); ether_ntoa_r, ether_aton_r
//               (the caller's); all read their argument
// The name looked up is read. Only from threads the runtime already knows, never from inside
// the runtime.
#include <netinet/ether.h>
#include <stdio.h>
#include <utmp.h>
#include <utmpx.h>

#include "rt_library_lookup.hpp"
#include "rt_real.hpp"

using namespace frt;

namespace {

FRT_DECLARE_REAL(gethostent);
FRT_DECLARE_REAL(gethostent_r);
FRT_DECLARE_REAL(getnetent);
FRT_DECLARE_REAL(getnetbyname);
FRT_DECLARE_REAL(getnetbyaddr);
FRT_DECLARE_REAL(getprotoent);
FRT_DECLARE_REAL(getprotoent_r);
FRT_DECLARE_REAL(getprotobyname_r);
FRT_DECLARE_REAL(getprotobynumber_r);
FRT_DECLARE_REAL(getpwent_r);
FRT_DECLARE_REAL(fgetpwent);
FRT_DECLARE_REAL(fgetpwent_r);
FRT_DECLARE_REAL(getgrent_r);
FRT_DECLARE_REAL(fgetgrent);
FRT_DECLARE_REAL(fgetgrent_r);
FRT_DECLARE_REAL(getmntent);
FRT_DECLARE_REAL(getmntent_r);
FRT_DECLARE_REAL(getutent);
FRT_DECLARE_REAL(getutid);
FRT_DECLARE_REAL(getutline);
FRT_DECLARE_REAL(getutxent);
FRT_DECLARE_REAL(getutxid);
FRT_DECLARE_REAL(getutxline);
FRT_DECLARE_REAL(ether_ntoa);
FRT_DECLARE_REAL(ether_ntoa_r);
FRT_DECLARE_REAL(ether_aton);
FRT_DECLARE_REAL(ether_aton_r);

// A login record: the key entry read (getutid, getutline), the static entry written.
template <class Entry> Entry* login_read(u64 pc, const Entry* key, Entry* r) {
    if (LibraryCall c(pc); c) {
        c.bytes(key, sizeof *key, false);
        c.bytes(r, sizeof *r, true);
    }
    return r;
}

// An address converted to text: the address read, the text written (when there is one).
char* address_text(u64 pc, const struct ether_addr* a, char* r) {
    if (LibraryCall c(pc); c) {
        c.bytes(a, sizeof *a, false);
        c.text(r, true);
    }
    return r;
}
// A text converted to an address: the text read, the address written (when it parsed).
struct ether_addr* text_address(u64 pc, const char* s, struct ether_addr* r) {
    if (LibraryCall c(pc); c) {
        c.text(s, false);
        c.bytes(r, sizeof *r, true);
    }
    return r;
}

} // namespace

// --- entries through NSS -------------------------------------------------------------------------

FRT_EXPORT struct hostent* gethostent() {
    return looked_up<struct hostent>(FRT_CALLER(), nullptr, [&] { return REAL(gethostent)(); });
}
FRT_EXPORT int gethostent_r(struct hostent* ret, char* buf, size_t size, struct hostent** result,
                            int* h_errnop) {
    return host_looked_up_r(FRT_CALLER(), nullptr, result, h_errnop,
                            [&] { return REAL(gethostent_r)(ret, buf, size, result, h_errnop); });
}
FRT_EXPORT struct netent* getnetent() {
    return looked_up<struct netent>(FRT_CALLER(), nullptr, [&] { return REAL(getnetent)(); });
}
FRT_EXPORT struct netent* getnetbyname(const char* name) {
    return looked_up<struct netent>(FRT_CALLER(), name, [&] { return REAL(getnetbyname)(name); });
}
FRT_EXPORT struct netent* getnetbyaddr(uint32_t net, int type) {
    return looked_up<struct netent>(FRT_CALLER(), nullptr,
                                    [&] { return REAL(getnetbyaddr)(net, type); });
}
FRT_EXPORT struct protoent* getprotoent() {
    return looked_up<struct protoent>(FRT_CALLER(), nullptr, [&] { return REAL(getprotoent)(); });
}
FRT_EXPORT int getprotoent_r(struct protoent* ret, char* buf, size_t size,
                             struct protoent** result) {
    return looked_up_r(FRT_CALLER(), nullptr, result,
                       [&] { return REAL(getprotoent_r)(ret, buf, size, result); });
}
FRT_EXPORT int getprotobyname_r(const char* name, struct protoent* ret, char* buf, size_t size,
                                struct protoent** result) {
    return looked_up_r(FRT_CALLER(), name, result,
                       [&] { return REAL(getprotobyname_r)(name, ret, buf, size, result); });
}
FRT_EXPORT int getprotobynumber_r(int proto, struct protoent* ret, char* buf, size_t size,
                                  struct protoent** result) {
    return looked_up_r(FRT_CALLER(), nullptr, result,
                       [&] { return REAL(getprotobynumber_r)(proto, ret, buf, size, result); });
}
FRT_EXPORT int getpwent_r(struct passwd* ret, char* buf, size_t size, struct passwd** result) {
    return looked_up_r(FRT_CALLER(), nullptr, result,
                       [&] { return REAL(getpwent_r)(ret, buf, size, result); });
}
FRT_EXPORT int getgrent_r(struct group* ret, char* buf, size_t size, struct group** result) {
    return looked_up_r(FRT_CALLER(), nullptr, result,
                       [&] { return REAL(getgrent_r)(ret, buf, size, result); });
}

// --- entries read from the program's streams ---------------------------------------------------

FRT_EXPORT struct passwd* fgetpwent(FILE* f) {
    return looked_up<struct passwd>(FRT_CALLER(), nullptr, [&] { return REAL(fgetpwent)(f); });
}
FRT_EXPORT int fgetpwent_r(FILE* f, struct passwd* ret, char* buf, size_t size,
                           struct passwd** result) {
    return looked_up_r(FRT_CALLER(), nullptr, result,
                       [&] { return REAL(fgetpwent_r)(f, ret, buf, size, result); });
}
FRT_EXPORT struct group* fgetgrent(FILE* f) {
    return looked_up<struct group>(FRT_CALLER(), nullptr, [&] { return REAL(fgetgrent)(f); });
}
FRT_EXPORT int fgetgrent_r(FILE* f, struct group* ret, char* buf, size_t size,
                           struct group** result) {
    return looked_up_r(FRT_CALLER(), nullptr, result,
                       [&] { return REAL(fgetgrent_r)(f, ret, buf, size, result); });
}
FRT_EXPORT struct mntent* getmntent(FILE* f) {
    return looked_up<struct mntent>(FRT_CALLER(), nullptr, [&] { return REAL(getmntent)(f); });
}
FRT_EXPORT struct mntent* getmntent_r(FILE* f, struct mntent* ret, char* buf, int size) {
    return looked_up<struct mntent>(FRT_CALLER(), nullptr,
                                    [&] { return REAL(getmntent_r)(f, ret, buf, size); });
}

// --- login records, ethernet addresses ---------------------------------------------------------

FRT_EXPORT struct utmp* getutent() {
    return login_read<struct utmp>(FRT_CALLER(), nullptr, REAL(getutent)());
}
FRT_EXPORT struct utmp* getutid(const struct utmp* key) {
    return login_read(FRT_CALLER(), key, REAL(getutid)(key));
}
FRT_EXPORT struct utmp* getutline(const struct utmp* key) {
    return login_read(FRT_CALLER(), key, REAL(getutline)(key));
}
FRT_EXPORT struct utmpx* getutxent() {
    return login_read<struct utmpx>(FRT_CALLER(), nullptr, REAL(getutxent)());
}
FRT_EXPORT struct utmpx* getutxid(const struct utmpx* key) {
    return login_read(FRT_CALLER(), key, REAL(getutxid)(key));
}
FRT_EXPORT struct utmpx* getutxline(const struct utmpx* key) {
    return login_read(FRT_CALLER(), key, REAL(getutxline)(key));
}
FRT_EXPORT char* ether_ntoa(const struct ether_addr* a) {
    return address_text(FRT_CALLER(), a, REAL(ether_ntoa)(a));
}
FRT_EXPORT char* ether_ntoa_r(const struct ether_addr* a, char* buf) {
    return address_text(FRT_CALLER(), a, REAL(ether_ntoa_r)(a, buf));
}
FRT_EXPORT struct ether_addr* ether_aton(const char* s) {
    return text_address(FRT_CALLER(), s, REAL(ether_aton)(s));
}
FRT_EXPORT struct ether_addr* ether_aton_r(const char* s, struct ether_addr* a) {
    return text_address(FRT_CALLER(), s, REAL(ether_aton_r)(s, a));
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(gethostent)
FRT_INTERCEPTOR_ALIAS(gethostent_r)
FRT_INTERCEPTOR_ALIAS(getnetent)
FRT_INTERCEPTOR_ALIAS(getnetbyname)
FRT_INTERCEPTOR_ALIAS(getnetbyaddr)
FRT_INTERCEPTOR_ALIAS(getprotoent)
FRT_INTERCEPTOR_ALIAS(getprotoent_r)
FRT_INTERCEPTOR_ALIAS(getprotobyname_r)
FRT_INTERCEPTOR_ALIAS(getprotobynumber_r)
FRT_INTERCEPTOR_ALIAS(getpwent_r)
FRT_INTERCEPTOR_ALIAS(fgetpwent)
FRT_INTERCEPTOR_ALIAS(fgetpwent_r)
FRT_INTERCEPTOR_ALIAS(getgrent_r)
FRT_INTERCEPTOR_ALIAS(fgetgrent)
FRT_INTERCEPTOR_ALIAS(fgetgrent_r)
FRT_INTERCEPTOR_ALIAS(getmntent)
FRT_INTERCEPTOR_ALIAS(getmntent_r)
FRT_INTERCEPTOR_ALIAS(getutent)
FRT_INTERCEPTOR_ALIAS(getutid)
FRT_INTERCEPTOR_ALIAS(getutline)
FRT_INTERCEPTOR_ALIAS(getutxent)
FRT_INTERCEPTOR_ALIAS(getutxid)
FRT_INTERCEPTOR_ALIAS(getutxline)
FRT_INTERCEPTOR_ALIAS(ether_ntoa)
FRT_INTERCEPTOR_ALIAS(ether_ntoa_r)
FRT_INTERCEPTOR_ALIAS(ether_aton)
FRT_INTERCEPTOR_ALIAS(ether_aton_r)
