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
// _S_run also drops the reference it took on the state, through libstdc++'s uninstrumented
// reference count: when the future was released first, the state would be destroyed there,
// unordered with the future's last use. The trampoline therefore holds a reference of its own
// across _S_run, taken and dropped as the header's shared_ptr code does it (acq_rel RMWs of the
// use count, recorded like instrumented ones, which the future's release pairs with), and
// destroys the state itself when its reference is the last.
//
// The layouts read here are libstdc++'s ABI (GLIBCXX_3.4.21, unchanged since GCC 5):
// __at_thread_exit_elt { _M_next; _M_cb }, then _Make_ready's weak_ptr<_State_baseV2>
// { _M_ptr; _M_refcount }; _State_baseV2 { vptr; _M_result; __atomic_futex_unsigned _M_status };
// _Sp_counted_base { vptr; _M_use_count; _M_weak_count }, virtual functions: two destructors,
// _M_dispose, _M_destroy.
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
struct ControlBlock {
    void (**vtable)(ControlBlock*);
    int use_count;
    int weak_count;
};
constexpr int kDispose = 2, kDestroy = 3; // _Sp_counted_base's virtual function slots
struct MakeReady {
    AtThreadExitElt elt;
    char* state;           // weak_ptr<_State_baseV2>::_M_ptr
    ControlBlock* control; // weak_ptr<_State_baseV2>::_M_refcount
};
constexpr u64 kStatusOffset = 16; // _State_baseV2::_M_status

// libstdc++'s _S_run (a static member function: the same for every state), seen in _M_set.
std::atomic<void (*)(void*)> g_run{nullptr};
u64 g_set_caller = 0; // pc of the program's set_value_at_thread_exit: only names the records

// weak_ptr::lock: a reference when the state is still alive.
bool hold_state(ControlBlock* c, u64 pc) {
    int count = 0;
    library_atomic_op(&c->use_count, {true, true, false}, pc, [&] {
        count = __atomic_load_n(&c->use_count, __ATOMIC_RELAXED);
        while (count > 0 && !__atomic_compare_exchange_n(&c->use_count, &count, count + 1, false,
                                                         __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
        }
    });
    return count > 0;
}

// shared_ptr's release: the last reference destroys the state (instrumented code: traced).
void drop_state(ControlBlock* c, u64 pc) {
    int before = 0;
    library_atomic_op(&c->use_count, {true, true, false}, pc,
                      [&] { before = __atomic_fetch_sub(&c->use_count, 1, __ATOMIC_ACQ_REL); });
    if (before != 1) return;
    c->vtable[kDispose](c);
    if (__atomic_fetch_sub(&c->weak_count, 1, __ATOMIC_ACQ_REL) == 1) c->vtable[kDestroy](c);
}

void make_ready_at_exit(void* p) {
    const auto* mr = static_cast<const MakeReady*>(p); // _S_run deletes it
    ControlBlock* control = mr->control;
    const u64 pc = __atomic_load_n(&g_set_caller, __ATOMIC_RELAXED);
    // A state nobody holds any more (promise and future gone) is not made ready by _S_run.
    const bool held = control != nullptr && hold_state(control, pc);
    if (held) library_atomic_op(mr->state + kStatusOffset, {false, true, false}, pc, [] {});
    g_run.load(std::memory_order_relaxed)(p);
    if (held) drop_state(control, pc);
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
