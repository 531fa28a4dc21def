// The C library's binary search trees (POSIX XSH tsearch, tfind, tdelete, tdestroy): the tree is
// the program's object, reached through its root pointer, and the library changes it in place
// (glibc's red-black tree recolours and rotates nodes on every insertion and removal, and may
// store a new root). The root pointer stands for the whole tree here, as strtok's state byte
// stands for its position (rt_libc_shared_state.cpp): tsearch and tdelete write it, tfind reads
// it, so two threads inserting into one tree without a lock race (XSH: the functions are not
// required to be thread-safe on one tree), lookups alone do not, and a lookup races with an
// unordered insertion. The nodes are blocks the calls allocate and free: the program's
// (tls_library_call_pc, rt_stdio.hpp). The comparison and the node action are the program's
// code, traced where it is instrumented. ThreadSanitizer records only a new root (it misses
// two threads inserting below it).
// Only from threads the runtime already knows, never from inside the runtime.
#include <search.h>

#include "rt_library_call.hpp"
#include "rt_real.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {

FRT_DECLARE_REAL(tsearch);
FRT_DECLARE_REAL(tfind);
FRT_DECLARE_REAL(tdelete);
FRT_DECLARE_REAL(tdestroy);

// A call made at pc on the tree at *root, by `real`: the root pointer read or written.
template <class Real> auto tree_used(u64 pc, const void* root, bool write, Real real) {
    if (LibraryCall c(pc); c) c.bytes(root, sizeof(void*), false);
    const auto r = [&] {
        ProgramAllocations program(pc);
        return real();
    }();
    if (write)
        if (LibraryCall c(pc); c) c.bytes(root, sizeof(void*), true);
    return r;
}

} // namespace

FRT_EXPORT void* tsearch(const void* key, void** root, __compar_fn_t compare) {
    return tree_used(FRT_CALLER(), root, true, [&] { return REAL(tsearch)(key, root, compare); });
}
FRT_EXPORT void* tfind(const void* key, void* const* root, __compar_fn_t compare) {
    return tree_used(FRT_CALLER(), root, false, [&] { return REAL(tfind)(key, root, compare); });
}
FRT_EXPORT void* tdelete(const void* __restrict key, void** __restrict root,
                         __compar_fn_t compare) {
    return tree_used(FRT_CALLER(), root, true, [&] { return REAL(tdelete)(key, root, compare); });
}
// tdestroy is given the root itself: its frees are the program's.
FRT_EXPORT void tdestroy(void* root, __free_fn_t free_node) {
    ProgramAllocations program(FRT_CALLER());
    REAL(tdestroy)(root, free_node);
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(tsearch)
FRT_INTERCEPTOR_ALIAS(tfind)
FRT_INTERCEPTOR_ALIAS(tdelete)
FRT_INTERCEPTOR_ALIAS(tdestroy)
