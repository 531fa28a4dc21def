// C++ exception objects shared between threads (C++ [propagation]p7: exception_ptr objects that
// refer to the same exception object do not introduce a data race). libsupc++ counts the
// references to a thrown object in its header: the throw (until the last handler ends), each
// std::exception_ptr, each std::rethrow_exception in flight. The holder that drops the last
// one runs the object's destructor and frees it, often not the thread that used it last: a
// worker hands its exception to main (std::promise::set_exception, a queue of exception_ptr)
// and its handler ends after main's copies are gone. The count's atomics are libsupc++'s own,
// so the destruction was unordered with the other threads' uses: a false race between the
// exception's destructor (or free) and main's reads of it.
//
// The drops go through two exported functions, reached through the PLT: the exception_ptr
// destructor's std::__exception_ptr::exception_ptr::_M_release, and __cxa_end_catch's
// _Unwind_DeleteException (libgcc), which calls the exception's cleanup, libsupc++'s drop of
// the throw's reference (or, for a std::rethrow_exception, of the dependent exception's
// reference to the primary). Each is a drop of a counted reference (rt_library_refcount.hpp).
// The layout is the Itanium C++ ABI's as libsupc++ implements it on x86-64 (unchanged since
// GCC 4.5): the object follows its __cxa_refcounted_exception header (128 bytes, the count
// first), whose last member is the _Unwind_Exception (32 bytes, exception_class first); a
// dependent exception's header has the same size, the primary object's address first.
// Exceptions of other runtimes (libc++abi's class "CLNGC++") and foreign ones are passed on.
#include "rt_library_refcount.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;

namespace {
using ReleaseFn = void (*)(void**);
using DeleteExceptionFn = void (*)(void*);
FRT_DECLARE_REAL_TYPED(_ZNSt15__exception_ptr13exception_ptr10_M_releaseEv, ReleaseFn);
FRT_DECLARE_REAL_TYPED(_Unwind_DeleteException, DeleteExceptionFn);

constexpr u64 kPrimaryClass = 0x474e5543432b2b00ULL;   // "GNUCC++\0"
constexpr u64 kDependentClass = 0x474e5543432b2b01ULL; // "GNUCC++\1"
constexpr u64 kRefcountedHeaderSize = 128;
constexpr u64 kUnwindHeaderSize = 32;
constexpr u64 kDependentHeaderSize = 112; // __cxa_dependent_exception, the unwind header last

u64 exception_class(const char* object) {
    return *reinterpret_cast<const u64*>(object - kUnwindHeaderSize);
}
int* reference_count(char* object) {
    return reinterpret_cast<int*>(object - kRefcountedHeaderSize);
}

// The drop of a reference to a primary exception object, made by `drop`.
template <class Drop> void drop_exception_reference(char* object, u64 pc, Drop&& drop) {
    auto release = REAL(_ZNSt15__exception_ptr13exception_ptr10_M_releaseEv);
    if (release == nullptr || exception_class(object) != kPrimaryClass) {
        drop();
        return;
    }
    drop_counted_reference(reference_count(object), 1, pc, drop, [&] {
        void* pointer = object; // an exception_ptr holding the runtime's reference
        release(&pointer);
    });
}
} // namespace

FRT_EXPORT void _ZNSt15__exception_ptr13exception_ptr10_M_releaseEv(void** self) {
    auto real = REAL(_ZNSt15__exception_ptr13exception_ptr10_M_releaseEv);
    if (real == nullptr) return;
    if (*self == nullptr) {
        real(self);
        return;
    }
    drop_exception_reference(static_cast<char*>(*self), FRT_CALLER(), [&] { real(self); });
}

FRT_EXPORT void _Unwind_DeleteException(void* unwind_header) {
    auto real = REAL(_Unwind_DeleteException);
    if (real == nullptr) return;
    char* header_end = static_cast<char*>(unwind_header) + kUnwindHeaderSize;
    const u64 cls = *static_cast<const u64*>(unwind_header);
    char* primary = nullptr;
    if (cls == kPrimaryClass)
        primary = header_end;
    else if (cls == kDependentClass)
        primary = *reinterpret_cast<char**>(header_end - kDependentHeaderSize);
    if (primary == nullptr) {
        real(unwind_header);
        return;
    }
    drop_exception_reference(primary, FRT_CALLER(), [&] { real(unwind_header); });
}
