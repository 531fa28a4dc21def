// std::locale objects shared between threads through copies ([res.on.data.races]: copies used in
// different threads do not race). Each copy holds a reference to the same locale::_Impl, counted
// by libstdc++ in the _Impl's first word (the classic locale's references are not counted); the
// destructor or assignment that drops the last one destroys the _Impl, and with it the facets no
// other locale holds (a program's own facet: its destructor, then delete). That count's atomics
// are libstdc++'s own, so the destruction was unordered with the other copies' uses: use_facet's
// read of the _Impl's facet array (instantiated in the program) and the facet's own members
// raced with the destroying thread's destructor and frees.
//
// std::locale's destructor (D1 and D2, one function) and copy assignment are exported and reached
// through the PLT, from the program and from libstdc++'s streams alike: each drop of a counted
// reference is one (rt_library_refcount.hpp). The process's global locale (std::locale::global)
// is exempt while it is global: it cannot be destroyed then, and every stream copies and drops
// it, so that from five threads on its releases would merge (over-ordering the threads,
// rt_atomic_model.hpp) and each drop would write a record. Not modelled: the drops of a global
// locale's copies made before std::locale::global replaced it (a false race when its last copy
// goes later in another thread); a facet shared by several _Impls is destroyed by the last of
// their destructions, whose own counts are only decremented inside ~_Impl; its uses through the
// other locales stay unordered with that.
#include "rt_library_refcount.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;

namespace {
struct Locale {
    int* impl; // locale::_Impl*, whose reference count is its first member
};
using DestructorFn = void (*)(Locale*);
using AssignFn = Locale* (*)(Locale*, const Locale*);
using ClassicFn = const Locale* (*)();
using GlobalFn = Locale* (*)(Locale*, const Locale*); // the old global returned through sret
FRT_DECLARE_REAL_TYPED(_ZNSt6localeD1Ev, DestructorFn);
FRT_DECLARE_REAL_TYPED(_ZNSt6localeaSERKS_, AssignFn);
FRT_DECLARE_REAL_TYPED(_ZNSt6locale7classicEv, ClassicFn);
FRT_DECLARE_REAL_TYPED(_ZNSt6locale6globalERKS_, GlobalFn);

// The _Impl of the locale made global last (null: the classic one is).
std::atomic<int*> g_global_impl{nullptr};

// The classic locale's _Impl, whose references libstdc++ does not count. Any locale being
// destroyed or assigned was made after the locale machinery's initialization, so classic()
// returns its static object at once.
int* classic_impl() {
    static std::atomic<int*> impl{nullptr};
    int* i = impl.load(std::memory_order_relaxed);
    if (i == nullptr) {
        auto classic = REAL(_ZNSt6locale7classicEv);
        if (classic == nullptr) return nullptr;
        i = classic()->impl;
        impl.store(i, std::memory_order_relaxed);
    }
    return i;
}

bool counted(const int* impl) {
    const int* classic = classic_impl();
    return impl != nullptr && classic != nullptr && impl != classic &&
           impl != g_global_impl.load(std::memory_order_relaxed);
}

void destroy_locale(Locale* self, u64 pc) {
    auto real = REAL(_ZNSt6localeD1Ev);
    if (real == nullptr) return;
    int* impl = self->impl;
    if (!counted(impl)) {
        real(self);
        return;
    }
    drop_counted_reference(
        impl, 1, pc, [&] { real(self); },
        [&] {
            Locale holder{impl}; // a locale holding the runtime's reference
            real(&holder);
        });
}
} // namespace

FRT_EXPORT void _ZNSt6localeD1Ev(Locale* self) {
    destroy_locale(self, FRT_CALLER());
}
FRT_EXPORT void _ZNSt6localeD2Ev(Locale* self) {
    destroy_locale(self, FRT_CALLER());
}

FRT_EXPORT Locale* _ZNSt6localeaSERKS_(Locale* self, const Locale* other) {
    auto real = REAL(_ZNSt6localeaSERKS_);
    auto destroy = REAL(_ZNSt6localeD1Ev);
    if (real == nullptr) return self;
    int* old = self->impl;
    if (destroy == nullptr || old == other->impl || !counted(old)) return real(self, other);
    Locale* result = self;
    drop_counted_reference(
        old, 1, FRT_CALLER(), [&] { result = real(self, other); },
        [&] {
            Locale holder{old};
            destroy(&holder);
        });
    return result;
}

FRT_EXPORT Locale* _ZNSt6locale6globalERKS_(Locale* old_global, const Locale* other) {
    auto real = REAL(_ZNSt6locale6globalERKS_);
    if (real == nullptr) return old_global;
    Locale* result = real(old_global, other);
    g_global_impl.store(other->impl, std::memory_order_relaxed);
    return result;
}
