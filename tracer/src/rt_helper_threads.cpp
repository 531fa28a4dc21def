// Library calls that start threads of the C library's own (glibc creates them with its internal
// pthread_create, which the runtime does not see): a SIGEV_THREAD notification of a timer or a
// message queue runs the program's function on such a thread, and POSIX asynchronous I/O does
// the transfers on them. The runtime attaches such a thread only when it first runs traced code,
// so from the call on the caller can no longer count itself alone (rt_thread_registry.cpp,
// alone(): events of a process that is alone are not written).
#include <aio.h>
#include <errno.h>
#include <mqueue.h>
#include <netdb.h>
#include <signal.h>
#include <time.h>

#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;

namespace {
FRT_DECLARE_REAL(timer_create);
FRT_DECLARE_REAL(mq_notify);
FRT_DECLARE_REAL(aio_read);
FRT_DECLARE_REAL(aio_write);
FRT_DECLARE_REAL(aio_fsync);
FRT_DECLARE_REAL(lio_listio);
FRT_DECLARE_REAL(aio_read64);
FRT_DECLARE_REAL(aio_write64);
FRT_DECLARE_REAL(aio_fsync64);
FRT_DECLARE_REAL(lio_listio64);

FRT_DECLARE_REAL(getaddrinfo_a);

bool notifies_on_thread(const struct sigevent* event) {
    return event != nullptr && event->sigev_notify == SIGEV_THREAD;
}

// The real call (ENOSYS if this C library lacks it).
template <class Real, class... Args> int forward(Real real, Args... args) {
    if (real == nullptr) {
        errno = ENOSYS;
        return -1;
    }
    return real(args...);
}
} // namespace

FRT_EXPORT int timer_create(clockid_t clock, struct sigevent* event, timer_t* timer) {
    if (notifies_on_thread(event)) unordered_helper_thread();
    return forward(REAL(timer_create), clock, event, timer);
}

FRT_EXPORT int mq_notify(mqd_t queue, const struct sigevent* event) {
    if (notifies_on_thread(event)) unordered_helper_thread();
    return forward(REAL(mq_notify), queue, event);
}

FRT_EXPORT int aio_read(struct aiocb* cb) {
    unordered_helper_thread();
    return forward(REAL(aio_read), cb);
}

FRT_EXPORT int aio_write(struct aiocb* cb) {
    unordered_helper_thread();
    return forward(REAL(aio_write), cb);
}

FRT_EXPORT int aio_fsync(int op, struct aiocb* cb) {
    unordered_helper_thread();
    return forward(REAL(aio_fsync), op, cb);
}

FRT_EXPORT int lio_listio(int mode, struct aiocb* const list[], int count, struct sigevent* event) {
    unordered_helper_thread();
    return forward(REAL(lio_listio), mode, list, count, event);
}

FRT_EXPORT int aio_read64(struct aiocb64* cb) {
    unordered_helper_thread();
    return forward(REAL(aio_read64), cb);
}

FRT_EXPORT int aio_write64(struct aiocb64* cb) {
    unordered_helper_thread();
    return forward(REAL(aio_write64), cb);
}

FRT_EXPORT int aio_fsync64(int op, struct aiocb64* cb) {
    unordered_helper_thread();
    return forward(REAL(aio_fsync64), op, cb);
}

FRT_EXPORT int lio_listio64(int mode, struct aiocb64* const list[], int count,
                            struct sigevent* event) {
    unordered_helper_thread();
    return forward(REAL(lio_listio64), mode, list, count, event);
}

FRT_EXPORT int getaddrinfo_a(int mode, struct gaicb* list[], int count, struct sigevent* event) {
    unordered_helper_thread();
    return forward(REAL(getaddrinfo_a), mode, list, count, event);
}

FRT_INTERCEPTOR_ALIAS(timer_create)
FRT_INTERCEPTOR_ALIAS(mq_notify)
FRT_INTERCEPTOR_ALIAS(aio_read)
FRT_INTERCEPTOR_ALIAS(aio_write)
FRT_INTERCEPTOR_ALIAS(aio_fsync)
FRT_INTERCEPTOR_ALIAS(lio_listio)
FRT_INTERCEPTOR_ALIAS(aio_read64)
FRT_INTERCEPTOR_ALIAS(aio_write64)
FRT_INTERCEPTOR_ALIAS(aio_fsync64)
FRT_INTERCEPTOR_ALIAS(lio_listio64)
FRT_INTERCEPTOR_ALIAS(getaddrinfo_a)
