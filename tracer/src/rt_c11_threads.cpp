// C11 <threads.h>: thrd_*, mtx_*, cnd_*, call_once.
//
// glibc (2.34 and later) implements them in libc on top of its pthread functions, but calls
// those internally, past the dynamic linker: the interposed pthread functions never see a
// thrd_create'd thread, an mtx_lock or a cnd_wait. Each C11 function is therefore interposed
// itself and forwarded to the interposed pthread function that glibc would call, with the
// same objects (mtx_t and cnd_t are glibc's pthread_mutex_t and pthread_cond_t, sized alike;
// once_flag is a pthread_once_t, thrd_t a pthread_t), so the model is the pthread one exactly
// (rt_interceptors.cpp). Results are mapped to thrd_* codes as glibc's thrd_err_map does.
// tss_* need nothing: their destructors run as pthread key destructors, which the runtime sees
// through the thread's end (rt_interceptors.cpp).
#include <errno.h>
#include <pthread.h>
#include <threads.h>

#include <cstdint>

#include "rt_record.hpp"

using namespace frt;

extern "C" {
void* __libc_malloc(size_t);
void __libc_free(void*);
}

static_assert(sizeof(mtx_t) == sizeof(pthread_mutex_t));
static_assert(sizeof(cnd_t) == sizeof(pthread_cond_t));
static_assert(sizeof(once_flag) == sizeof(pthread_once_t));
static_assert(sizeof(thrd_t) == sizeof(pthread_t));

namespace {

int thrd_result(int err) {
    switch (err) {
    case 0:
        return thrd_success;
    case ENOMEM:
        return thrd_nomem;
    case ETIMEDOUT:
        return thrd_timedout;
    case EBUSY:
        return thrd_busy;
    default:
        return thrd_error;
    }
}

// A C11 start routine returns int; the pthread one returns void* (thrd_join gets the int back).
struct C11Start {
    thrd_start_t fn;
    void* arg;
};
void* c11_start(void* p) {
    const C11Start s = *static_cast<C11Start*>(p);
    __libc_free(p);
    return reinterpret_cast<void*>(static_cast<std::intptr_t>(s.fn(s.arg)));
}

pthread_mutex_t* as_mutex(mtx_t* m) {
    return reinterpret_cast<pthread_mutex_t*>(m);
}
pthread_cond_t* as_cond(cnd_t* c) {
    return reinterpret_cast<pthread_cond_t*>(c);
}

} // namespace

FRT_EXPORT int thrd_create(thrd_t* thread, thrd_start_t fn, void* arg) {
    auto* s = static_cast<C11Start*>(__libc_malloc(sizeof(C11Start)));
    if (s == nullptr) return thrd_nomem;
    *s = {fn, arg};
    const int r = pthread_create(reinterpret_cast<pthread_t*>(thread), nullptr, c11_start, s);
    if (r != 0) __libc_free(s);
    return thrd_result(r);
}
FRT_EXPORT int thrd_join(thrd_t thread, int* result) {
    void* value = nullptr;
    const int r = pthread_join(static_cast<pthread_t>(thread), &value);
    if (r == 0 && result != nullptr)
        *result = static_cast<int>(reinterpret_cast<std::intptr_t>(value));
    return thrd_result(r);
}
FRT_EXPORT void thrd_exit(int result) {
    pthread_exit(reinterpret_cast<void*>(static_cast<std::intptr_t>(result)));
}

FRT_EXPORT int mtx_init(mtx_t* m, int type) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    switch (type) {
    case mtx_plain:
    case mtx_timed:
        break;
    case mtx_plain | mtx_recursive:
    case mtx_timed | mtx_recursive:
        pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
        break;
    default:
        return thrd_error;
    }
    const int r = pthread_mutex_init(as_mutex(m), &attr);
    pthread_mutexattr_destroy(&attr);
    return thrd_result(r);
}
FRT_EXPORT int mtx_lock(mtx_t* m) {
    return thrd_result(pthread_mutex_lock(as_mutex(m)));
}
FRT_EXPORT int mtx_trylock(mtx_t* m) {
    return thrd_result(pthread_mutex_trylock(as_mutex(m)));
}
FRT_EXPORT int mtx_timedlock(mtx_t* __restrict m, const struct timespec* __restrict abstime) {
    return thrd_result(pthread_mutex_timedlock(as_mutex(m), abstime));
}
FRT_EXPORT int mtx_unlock(mtx_t* m) {
    return thrd_result(pthread_mutex_unlock(as_mutex(m)));
}
FRT_EXPORT void mtx_destroy(mtx_t* m) {
    pthread_mutex_destroy(as_mutex(m));
}

FRT_EXPORT int cnd_init(cnd_t* c) {
    return thrd_result(pthread_cond_init(as_cond(c), nullptr));
}
FRT_EXPORT int cnd_signal(cnd_t* c) {
    return thrd_result(pthread_cond_signal(as_cond(c)));
}
FRT_EXPORT int cnd_broadcast(cnd_t* c) {
    return thrd_result(pthread_cond_broadcast(as_cond(c)));
}
FRT_EXPORT int cnd_wait(cnd_t* c, mtx_t* m) {
    return thrd_result(pthread_cond_wait(as_cond(c), as_mutex(m)));
}
FRT_EXPORT int cnd_timedwait(cnd_t* __restrict c, mtx_t* __restrict m,
                             const struct timespec* __restrict abstime) {
    return thrd_result(pthread_cond_timedwait(as_cond(c), as_mutex(m), abstime));
}
FRT_EXPORT void cnd_destroy(cnd_t* c) {
    pthread_cond_destroy(as_cond(c));
}

FRT_EXPORT void call_once(once_flag* flag, void (*routine)()) {
    pthread_once(reinterpret_cast<pthread_once_t*>(flag), routine);
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(thrd_create)
FRT_INTERCEPTOR_ALIAS(thrd_join)
FRT_INTERCEPTOR_ALIAS(thrd_exit)
FRT_INTERCEPTOR_ALIAS(mtx_init)
FRT_INTERCEPTOR_ALIAS(mtx_lock)
FRT_INTERCEPTOR_ALIAS(mtx_trylock)
FRT_INTERCEPTOR_ALIAS(mtx_timedlock)
FRT_INTERCEPTOR_ALIAS(mtx_unlock)
FRT_INTERCEPTOR_ALIAS(mtx_destroy)
FRT_INTERCEPTOR_ALIAS(cnd_init)
FRT_INTERCEPTOR_ALIAS(cnd_signal)
FRT_INTERCEPTOR_ALIAS(cnd_broadcast)
FRT_INTERCEPTOR_ALIAS(cnd_wait)
FRT_INTERCEPTOR_ALIAS(cnd_timedwait)
FRT_INTERCEPTOR_ALIAS(cnd_destroy)
FRT_INTERCEPTOR_ALIAS(call_once)
