// The system databases (POSIX XSH getpwnam, getgrnam, gethostbyname, getservbyname,
// getprotobyname): the non-reentrant lookups return a pointer to storage the C library owns
// and overwrites at the next lookup of the same database (glibc: MT-Unsafe race:pwnam,
// race:grgid, race:hostbyname, ...). Each such call writes the whole result: the structure,
// its strings and its arrays (as ThreadSanitizer's unpoison_passwd / write_hostent record
// them), so that two threads calling getpwnam race, and a thread reading a result races with
// another thread's next lookup that nothing orders after that read. The _r forms write the
// caller's structure, the strings and arrays they store in the caller's buffer, and *result.
//
//   passwd   getpwnam, getpwuid, getpwent; getpwnam_r, getpwuid_r
//   group    getgrnam, getgrgid, getgrent; getgrnam_r, getgrgid_r
//   hosts    gethostbyname, gethostbyname2, gethostbyaddr; gethostbyname_r, gethostbyname2_r,
//            gethostbyaddr_r (also *h_errnop)
//   services getservbyname, getservbyport;  protocols  getprotobyname, getprotobynumber
//   getnameinfo  reads the address, writes the host and service names it stores
// The names looked up are read. glibc loads NSS modules and allocates inside these calls: the
// allocations are the program's call (tls_library_call_pc, rt_stdio.hpp). Only from threads the
// runtime already knows, never from inside the runtime.
#include <grp.h>
#include <netdb.h>
#include <pwd.h>
#include <sys/socket.h>

#include "rt_library_lookup.hpp"
#include "rt_real.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {

FRT_DECLARE_REAL(getpwnam);
FRT_DECLARE_REAL(getpwuid);
FRT_DECLARE_REAL(getpwent);
FRT_DECLARE_REAL(getpwnam_r);
FRT_DECLARE_REAL(getpwuid_r);
FRT_DECLARE_REAL(getgrnam);
FRT_DECLARE_REAL(getgrgid);
FRT_DECLARE_REAL(getgrent);
FRT_DECLARE_REAL(getgrnam_r);
FRT_DECLARE_REAL(getgrgid_r);
FRT_DECLARE_REAL(gethostbyname);
FRT_DECLARE_REAL(gethostbyname2);
FRT_DECLARE_REAL(gethostbyaddr);
FRT_DECLARE_REAL(gethostbyname_r);
FRT_DECLARE_REAL(gethostbyname2_r);
FRT_DECLARE_REAL(gethostbyaddr_r);
FRT_DECLARE_REAL(getservbyname);
FRT_DECLARE_REAL(getservbyport);
FRT_DECLARE_REAL(getprotobyname);
FRT_DECLARE_REAL(getprotobynumber);
FRT_DECLARE_REAL(getnameinfo);

} // namespace

// --- users and groups --------------------------------------------------------------------------

FRT_EXPORT struct passwd* getpwnam(const char* name) {
    return looked_up<struct passwd>(FRT_CALLER(), name, [&] { return REAL(getpwnam)(name); });
}
FRT_EXPORT struct passwd* getpwuid(uid_t uid) {
    return looked_up<struct passwd>(FRT_CALLER(), nullptr, [&] { return REAL(getpwuid)(uid); });
}
FRT_EXPORT struct passwd* getpwent() {
    return looked_up<struct passwd>(FRT_CALLER(), nullptr, [&] { return REAL(getpwent)(); });
}
FRT_EXPORT int getpwnam_r(const char* name, struct passwd* pwd, char* buf, size_t size,
                          struct passwd** result) {
    return looked_up_r(FRT_CALLER(), name, result,
                       [&] { return REAL(getpwnam_r)(name, pwd, buf, size, result); });
}
FRT_EXPORT int getpwuid_r(uid_t uid, struct passwd* pwd, char* buf, size_t size,
                          struct passwd** result) {
    return looked_up_r(FRT_CALLER(), nullptr, result,
                       [&] { return REAL(getpwuid_r)(uid, pwd, buf, size, result); });
}
FRT_EXPORT struct group* getgrnam(const char* name) {
    return looked_up<struct group>(FRT_CALLER(), name, [&] { return REAL(getgrnam)(name); });
}
FRT_EXPORT struct group* getgrgid(gid_t gid) {
    return looked_up<struct group>(FRT_CALLER(), nullptr, [&] { return REAL(getgrgid)(gid); });
}
FRT_EXPORT struct group* getgrent() {
    return looked_up<struct group>(FRT_CALLER(), nullptr, [&] { return REAL(getgrent)(); });
}
FRT_EXPORT int getgrnam_r(const char* name, struct group* grp, char* buf, size_t size,
                          struct group** result) {
    return looked_up_r(FRT_CALLER(), name, result,
                       [&] { return REAL(getgrnam_r)(name, grp, buf, size, result); });
}
FRT_EXPORT int getgrgid_r(gid_t gid, struct group* grp, char* buf, size_t size,
                          struct group** result) {
    return looked_up_r(FRT_CALLER(), nullptr, result,
                       [&] { return REAL(getgrgid_r)(gid, grp, buf, size, result); });
}

// --- hosts, services, protocols ------------------------------------------------------------------

FRT_EXPORT struct hostent* gethostbyname(const char* name) {
    return looked_up<struct hostent>(FRT_CALLER(), name, [&] { return REAL(gethostbyname)(name); });
}
FRT_EXPORT struct hostent* gethostbyname2(const char* name, int af) {
    return looked_up<struct hostent>(FRT_CALLER(), name,
                                     [&] { return REAL(gethostbyname2)(name, af); });
}
FRT_EXPORT struct hostent* gethostbyaddr(const void* addr, socklen_t len, int type) {
    if (Lookup l(FRT_CALLER()); l) l.bytes(addr, len, false);
    return looked_up<struct hostent>(FRT_CALLER(), nullptr,
                                     [&] { return REAL(gethostbyaddr)(addr, len, type); });
}
FRT_EXPORT int gethostbyname_r(const char* name, struct hostent* ret, char* buf, size_t size,
                               struct hostent** result, int* h_errnop) {
    return host_looked_up_r(FRT_CALLER(), name, result, h_errnop, [&] {
        return REAL(gethostbyname_r)(name, ret, buf, size, result, h_errnop);
    });
}
FRT_EXPORT int gethostbyname2_r(const char* name, int af, struct hostent* ret, char* buf,
                                size_t size, struct hostent** result, int* h_errnop) {
    return host_looked_up_r(FRT_CALLER(), name, result, h_errnop, [&] {
        return REAL(gethostbyname2_r)(name, af, ret, buf, size, result, h_errnop);
    });
}
FRT_EXPORT int gethostbyaddr_r(const void* addr, socklen_t len, int type, struct hostent* ret,
                               char* buf, size_t size, struct hostent** result, int* h_errnop) {
    if (Lookup l(FRT_CALLER()); l) l.bytes(addr, len, false);
    return host_looked_up_r(FRT_CALLER(), nullptr, result, h_errnop, [&] {
        return REAL(gethostbyaddr_r)(addr, len, type, ret, buf, size, result, h_errnop);
    });
}
FRT_EXPORT struct servent* getservbyname(const char* name, const char* proto) {
    if (Lookup l(FRT_CALLER()); l) l.text(proto, false);
    return looked_up<struct servent>(FRT_CALLER(), name,
                                     [&] { return REAL(getservbyname)(name, proto); });
}
FRT_EXPORT struct servent* getservbyport(int port, const char* proto) {
    return looked_up<struct servent>(FRT_CALLER(), proto,
                                     [&] { return REAL(getservbyport)(port, proto); });
}
FRT_EXPORT struct protoent* getprotobyname(const char* name) {
    return looked_up<struct protoent>(FRT_CALLER(), name,
                                      [&] { return REAL(getprotobyname)(name); });
}
FRT_EXPORT struct protoent* getprotobynumber(int proto) {
    return looked_up<struct protoent>(FRT_CALLER(), nullptr,
                                      [&] { return REAL(getprotobynumber)(proto); });
}
FRT_EXPORT int getnameinfo(const struct sockaddr* sa, socklen_t salen, char* host,
                           socklen_t hostlen, char* serv, socklen_t servlen, int flags) {
    const u64 pc = FRT_CALLER();
    if (Lookup l(pc); l) l.bytes(sa, salen, false);
    int r;
    {
        ProgramAllocations program(pc);
        r = REAL(getnameinfo)(sa, salen, host, hostlen, serv, servlen, flags);
    }
    if (Lookup l(pc); l && r == 0) {
        if (hostlen != 0) l.text(host, true);
        if (servlen != 0) l.text(serv, true);
    }
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(getpwnam)
FRT_INTERCEPTOR_ALIAS(getpwuid)
FRT_INTERCEPTOR_ALIAS(getpwent)
FRT_INTERCEPTOR_ALIAS(getpwnam_r)
FRT_INTERCEPTOR_ALIAS(getpwuid_r)
FRT_INTERCEPTOR_ALIAS(getgrnam)
FRT_INTERCEPTOR_ALIAS(getgrgid)
FRT_INTERCEPTOR_ALIAS(getgrent)
FRT_INTERCEPTOR_ALIAS(getgrnam_r)
FRT_INTERCEPTOR_ALIAS(getgrgid_r)
FRT_INTERCEPTOR_ALIAS(gethostbyname)
FRT_INTERCEPTOR_ALIAS(gethostbyname2)
FRT_INTERCEPTOR_ALIAS(gethostbyaddr)
FRT_INTERCEPTOR_ALIAS(gethostbyname_r)
FRT_INTERCEPTOR_ALIAS(gethostbyname2_r)
FRT_INTERCEPTOR_ALIAS(gethostbyaddr_r)
FRT_INTERCEPTOR_ALIAS(getservbyname)
FRT_INTERCEPTOR_ALIAS(getservbyport)
FRT_INTERCEPTOR_ALIAS(getprotobyname)
FRT_INTERCEPTOR_ALIAS(getprotobynumber)
FRT_INTERCEPTOR_ALIAS(getnameinfo)
