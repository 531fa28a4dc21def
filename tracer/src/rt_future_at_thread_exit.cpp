// std::promise::set_value_at_thread_exit / set_exception_at_thread_exit and
// std::packaged_task::make_ready_at_thread_exit (C++20 [futures.promise]): the shared state
// becomes ready after the thread's thread_local objects are destroyed, and a get() that returns
// its value synchronizes with that. libstdc++ makes it ready inside the library: the header's
// _M_set_delayed_result hands a _Make_ready to _Make_ready::_M_set (exported), which stores its
// callback _S_run in the object and queues it to run at the thread's exit (std::__at_thread_exit);
// _S_run's release store of the state's status word is not instrumented, while the waiter's
// acquire load of that word in the header is. The interposed _M_set puts a trampoline in place
// of the callback: at the thread's exit it records the release store of the status word, as
// the atomic model records an instrumented one (rt_atomic_model.hpp, library_atomic_op), then
// runs _S_run, whose store follows at once. (A waiter that sleeps is woken through the futex
// word: rt_futex.cpp.)
//
// The layouts read here are libstdc++'s ABI (GLIBCXX_3.4.21, unchanged since GCC 5):
// __at_thread_exit_elt { _M_next; _M_cb }, then _Make_ready's weak_ptr<_State_baseV2>
// { _M_ptr; _M_refcount }; _State_baseV2 { vptr; _M_result; __atomic_futex_unsigned _M_status }.
#include "rt_atomic_model.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;

namespace {
using MakeReadySetFn = void (*)(void*);
FRT_DECLARE_REAL_TYPED(_ZNSt13__future_base13_State_baseV211_Make_ready6_M_setEv, MakeReadySetFn);

struct AtThreadExitElt {
    AtThreadExitElt* next;
    void (*callback)(void*);
};
struct MakeReady {
    AtThreadExitElt elt;
    char* state;              // weak_ptr<_State_baseV2>::_M_ptr
    const int* control_block; // its _Sp_counted_base: vptr, then the use count
};
constexpr u64 kStatusOffset = 16; // _State_baseV2::_M_status

// libstdc++'s _S_run (a static member function: the same for every state), seen in _M_set.
std::atomic<void (*)(void*)> g_run{nullptr};
u64 g_set_caller = 0; // pc of the program's set_value_at_thread_exit: only names the record

void make_ready_at_exit(void* p) {
    const auto* mr = static_cast<const MakeReady*>(p);
    // A state nobody holds any more (promise and future gone) is not made ready by _S_run.
    const bool alive = mr->control_block != nullptr &&
                       __atomic_load_n(mr->control_block + 2, __ATOMIC_RELAXED) > 0;
    if (alive)
        library_atomic_op(mr->state + kStatusOffset, {false, true, false},
                          __atomic_load_n(&g_set_caller, __ATOMIC_RELAXED), [] {});
    g_run.load(std::memory_order_relaxed)(p);
}
} // namespace

FRT_EXPORT void _ZNSt13__future_base13_State_baseV211_Make_ready6_M_setEv(void* self) {
    auto real = REAL(_ZNSt13__future_base13_State_baseV211_Make_ready6_M_setEv);
    if (real == nullptr) return;
    auto* mr = static_cast<MakeReady*>(self);
    __atomic_store_n(&g_set_caller, FRT_CALLER(), __ATOMIC_RELAXED);
    real(self); // sets mr->elt.callback to _S_run and queues the element
    if (mr->elt.callback == nullptr || mr->elt.callback == make_ready_at_exit) return;
    g_run.store(mr->elt.callback, std::memory_order_relaxed);
    mr->elt.callback = make_ready_at_exit;
}
