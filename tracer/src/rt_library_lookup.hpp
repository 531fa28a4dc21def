// The system databases' entries as library calls write them (POSIX XSH getpwnam, getgrnam,
// gethostbyname, getservbyname, getprotobyname, getnetbyname, getmntent, ...): a structure,
// its strings and its arrays, written whole by the call that returns it (as ThreadSanitizer's
// unpoison_passwd / write_hostent record them). Shared by the lookups (rt_libc_user_db.cpp) and
// the enumerations of the databases (rt_libc_db_entries.cpp).
#pragma once

#include <grp.h>
#include <mntent.h>
#include <netdb.h>
#include <pwd.h>

#include "rt_library_call.hpp"
#include "rt_stdio.hpp"

namespace frt {

// The accesses of one lookup: a library call that also knows the databases' entries.
class Lookup : public LibraryCall {
  public:
    using LibraryCall::LibraryCall;
    // A null-terminated array of pointers, and what each points to (`each` bytes, or a string
    // when each == 0).
    void array(char* const* a, u64 each) {
        if (a == nullptr) return;
        u64 n = 0;
        for (; a[n] != nullptr; ++n) {
            if (each == 0)
                text(a[n], true);
            else
                bytes(a[n], each, true);
        }
        bytes(a, (n + 1) * sizeof *a, true);
    }

    void written(const struct passwd* p) {
        if (p == nullptr) return;
        bytes(p, sizeof *p, true);
        for (const char* s : {p->pw_name, p->pw_passwd, p->pw_gecos, p->pw_dir, p->pw_shell})
            text(s, true);
    }
    void written(const struct group* g) {
        if (g == nullptr) return;
        bytes(g, sizeof *g, true);
        text(g->gr_name, true);
        text(g->gr_passwd, true);
        array(g->gr_mem, 0);
    }
    void written(const struct hostent* h) {
        if (h == nullptr) return;
        bytes(h, sizeof *h, true);
        text(h->h_name, true);
        array(h->h_aliases, 0);
        array(h->h_addr_list, static_cast<u64>(h->h_length));
    }
    void written(const struct servent* s) {
        if (s == nullptr) return;
        bytes(s, sizeof *s, true);
        text(s->s_name, true);
        text(s->s_proto, true);
        array(s->s_aliases, 0);
    }
    void written(const struct protoent* p) {
        if (p == nullptr) return;
        bytes(p, sizeof *p, true);
        text(p->p_name, true);
        array(p->p_aliases, 0);
    }
    void written(const struct netent* n) {
        if (n == nullptr) return;
        bytes(n, sizeof *n, true);
        text(n->n_name, true);
        array(n->n_aliases, 0);
    }
    void written(const struct mntent* m) {
        if (m == nullptr) return;
        bytes(m, sizeof *m, true);
        for (const char* s : {m->mnt_fsname, m->mnt_dir, m->mnt_type, m->mnt_opts})
            text(s, true);
    }
};

// A non-reentrant lookup: the real call (its allocations the program's), then its result.
template <class Result, class Real> Result* looked_up(u64 pc, const char* name, Real real) {
    if (name != nullptr)
        if (Lookup l(pc); l) l.text(name, false);
    Result* r;
    {
        ProgramAllocations program(pc);
        r = real();
    }
    if (Lookup l(pc); l) l.written(r);
    return r;
}

// A reentrant lookup returning an error number: on success *result and, when found, the entry.
template <class Entry, class Real>
int looked_up_r(u64 pc, const char* name, Entry** result, Real real) {
    if (name != nullptr)
        if (Lookup l(pc); l) l.text(name, false);
    int r;
    {
        ProgramAllocations program(pc);
        r = real();
    }
    if (Lookup l(pc); l && r == 0) {
        l.bytes(result, sizeof(Entry*), true);
        l.written(*result);
    }
    return r;
}

// The hosts' reentrant forms also store *h_errnop.
template <class Real>
int host_looked_up_r(u64 pc, const char* name, struct hostent** result, int* h_errnop, Real real) {
    const int r = looked_up_r(pc, name, result, real);
    if (Lookup l(pc); l) l.bytes(h_errnop, sizeof(int), true);
    return r;
}

} // namespace frt
