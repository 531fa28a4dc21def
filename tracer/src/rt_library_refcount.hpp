// A reference count that an uninstrumented library keeps for an object the program uses from
// several threads (libsupc++'s exception objects, libstdc++'s locales). Every holder's uses of
// the object happen before its drop of the reference, and the drop that reaches zero destroys
// the object (the program's destructor, then free): the destruction is ordered after every use
// through the count's read-modify-writes, which nothing traces. Without them the last holder's
// destructor and free raced with the other holders' earlier uses.
//
// Each drop is a release on the count (rt_atomic_model.hpp: one release head per process), and
// the destroying drop acquires them all first. Which drop reaches zero is known only inside the
// library, after the count changed and just before the destructor runs, so the interceptor
// holds a reference of its own across the library's drop (which then never destroys) and drops
// it itself: when it is the last one (nobody else holds the object, so nobody can take
// a reference any more), every other holder's release was recorded before its own decrement,
// the acquire is recorded, and the library's drop of that reference destroys the object. Only
// the destroying drop acquires: droppers of an object that lives on (a process-wide locale) are
// not ordered after each other. The final acquire also ends the count's release sequence, so a
// new object allocated at the same address does not pair with the old one's releases. A drop
// that finds the count at `sole` holds the only reference and destroys: it records nothing unless
// an earlier holder released (an exception thrown and caught in one thread costs no record).
#pragma once

#include "rt_atomic_model.hpp"

namespace frt {

// `drop()` is the library's drop of the caller's reference; `destroying_drop()` the library's
// drop of one more reference of the same object (it destroys the object when that is the last).
// `sole` is the count's value while one holder is left (1, or 0 where the library counts the
// holders besides the first, as libstdc++'s copy-on-write strings do).
template <class Drop, class DestroyingDrop>
void drop_counted_reference(int* count, int sole, u64 pc, Drop&& drop,
                            DestroyingDrop&& destroying_drop) {
    if (__atomic_load_n(count, __ATOMIC_ACQUIRE) == sole) {
        // The caller holds the only reference (an exception thrown and caught in one thread):
        // this drop destroys, and only earlier holders' releases, if any, need acquiring.
        bool released = false;
        if (InterceptorScope scope; scope)
            released = find_object(firstrace::format::kObjAtomic, count) != nullptr;
        if (released) library_atomic_op(count, {true, false, true}, pc, [] {});
        drop();
        return;
    }
    __atomic_fetch_add(count, 1, __ATOMIC_ACQ_REL); // the runtime's own reference
    library_atomic_op(count, {false, true, false}, pc, [] {});
    drop();
    int c = __atomic_load_n(count, __ATOMIC_ACQUIRE);
    for (;;) {
        if (c == sole) {
            library_atomic_op(count, {true, false, true}, pc, [] {});
            destroying_drop();
            return;
        }
        if (__atomic_compare_exchange_n(count, &c, c - 1, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            return;
    }
}

} // namespace frt
