// The messages of std::logic_error and std::runtime_error (and every class derived from them:
// out_of_range, system_error, ios_base::failure, ...) shared by copies of an error in several
// threads ([res.on.data.races]). libstdc++ keeps the message in a copy-on-write string
// (__cow_string, the old string ABI): a copy shares the characters and increments the count in
// their header, the destruction or assignment that drops the last reference frees them. The
// count's atomics are inline in the library's destructors, so the free was unordered with the
// other copies' what() reads: a false race when an error is copied into threads that each
// destroy their copy (ThreadSanitizer reports it too).
//
// Both classes' destructors (D1 and D2: the derived classes' destructors call D2 through the
// PLT) and copy assignments are drops of a counted reference (rt_library_refcount.hpp). The
// string's header before the characters is { length, capacity, count }, the count being the
// number of holders besides the first (0: one holder; -1: a string made unshareable, which an
// error's message never is, passed on). The runtime's own reference, when it is the last, is
// dropped as the library does: std::string::_Rep::_M_destroy frees the header and characters.
// The static empty string's count stays 0: a drop of it is a sole holder's that records
// nothing (no release of it was ever recorded).
#include "rt_library_refcount.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;

namespace {
struct Error {
    void* vtable;
    char* message; // __cow_string: the characters, after their header
};
using DestructorFn = void (*)(Error*);
using AssignFn = Error* (*)(Error*, const Error*);
using DestroyFn = void (*)(void*, const void*); // _Rep::_M_destroy(const allocator<char>&)
FRT_DECLARE_REAL_TYPED(_ZNSt11logic_errorD1Ev, DestructorFn);
FRT_DECLARE_REAL_TYPED(_ZNSt13runtime_errorD1Ev, DestructorFn);
FRT_DECLARE_REAL_TYPED(_ZNSt11logic_erroraSERKS_, AssignFn);
FRT_DECLARE_REAL_TYPED(_ZNSt13runtime_erroraSERKS_, AssignFn);
FRT_DECLARE_REAL_TYPED(_ZNSs4_Rep10_M_destroyERKSaIcE, DestroyFn);

constexpr u64 kHeaderSize = 24; // _Rep: length, capacity, count

int* message_count(char* message) {
    return reinterpret_cast<int*>(message - sizeof(int) * 2);
}

// The drop of `message`'s reference made by `drop`.
template <class Drop> void drop_message(char* message, u64 pc, Drop&& drop) {
    auto destroy = REAL(_ZNSs4_Rep10_M_destroyERKSaIcE);
    if (destroy == nullptr || message == nullptr ||
        __atomic_load_n(message_count(message), __ATOMIC_RELAXED) < 0) {
        drop();
        return;
    }
    drop_counted_reference(message_count(message), 0, pc, drop, [&] {
        const char allocator = 0; // std::allocator<char>: empty
        destroy(message - kHeaderSize, &allocator);
    });
}

void destroy_error(Error* self, DestructorFn real, u64 pc) {
    if (real == nullptr) return;
    drop_message(self->message, pc, [&] { real(self); });
}

Error* assign_error(Error* self, const Error* other, AssignFn real, u64 pc) {
    if (real == nullptr) return self;
    if (self->message == other->message) return real(self, other);
    Error* result = self;
    drop_message(self->message, pc, [&] { result = real(self, other); });
    return result;
}
} // namespace

FRT_EXPORT void _ZNSt11logic_errorD1Ev(Error* self) {
    destroy_error(self, REAL(_ZNSt11logic_errorD1Ev), FRT_CALLER());
}
FRT_EXPORT void _ZNSt11logic_errorD2Ev(Error* self) {
    destroy_error(self, REAL(_ZNSt11logic_errorD1Ev), FRT_CALLER());
}
FRT_EXPORT void _ZNSt13runtime_errorD1Ev(Error* self) {
    destroy_error(self, REAL(_ZNSt13runtime_errorD1Ev), FRT_CALLER());
}
FRT_EXPORT void _ZNSt13runtime_errorD2Ev(Error* self) {
    destroy_error(self, REAL(_ZNSt13runtime_errorD1Ev), FRT_CALLER());
}
FRT_EXPORT Error* _ZNSt11logic_erroraSERKS_(Error* self, const Error* other) {
    return assign_error(self, other, REAL(_ZNSt11logic_erroraSERKS_), FRT_CALLER());
}
FRT_EXPORT Error* _ZNSt13runtime_erroraSERKS_(Error* self, const Error* other) {
    return assign_error(self, other, REAL(_ZNSt13runtime_erroraSERKS_), FRT_CALLER());
}
