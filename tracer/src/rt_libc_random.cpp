// Pseudo-random numbers, as glibc 2.36 implements them (stdlib/random.c, drand48-iter.c):
//
//   rand, random, srand, srandom, initstate, setstate
//                glibc takes a lock of its own around the shared state (random.c's
//                __libc_lock_lock), so these calls never race with each other: nothing is
//                recorded for them (the state is the library's; its lock is not
//                synchronization of the program, as the FILE lock is not: ordering threads by
//                their rand() calls would hide their races). rand_r: rt_libc_results.cpp.
//   drand48, lrand48, mrand48, srand48, seed48, lcong48
//                share glibc's `__libc_drand48_data` without a lock (POSIX: need not be
//                thread-safe; glibc: MT-Unsafe race:drand48): each call writes it. A byte
//                stands for it in reports (`firstrace_drand48_state`), as for strtok.
//   erand48, nrand48, jrand48
//                keep their state in the caller's xsubi[3]: a read and write of those 6 bytes
//                (glibc reads the shared multiplier too, which only lcong48 changes: not
//                recorded, so two threads with their own xsubi never race).
//   the _r forms (drand48_r & co., random_r, srandom_r, initstate_r, setstate_r)
//                read and write the caller's state buffer (struct drand48_data, struct
//                random_data and the state array it points to) and write *result.
// Only from threads the runtime already knows, never from inside the runtime.
#include <stdlib.h>

#include <type_traits>

#include "rt_real.hpp"
#include "rt_stdio.hpp"

using namespace frt;

// drand48's shared state: glibc's is a static of its own; this byte stands for it in reports.
extern "C" __attribute__((visibility("default"))) unsigned char firstrace_drand48_state;
unsigned char firstrace_drand48_state;

namespace {

FRT_DECLARE_REAL(drand48);
FRT_DECLARE_REAL(lrand48);
FRT_DECLARE_REAL(mrand48);
FRT_DECLARE_REAL(srand48);
FRT_DECLARE_REAL(seed48);
FRT_DECLARE_REAL(lcong48);
FRT_DECLARE_REAL(erand48);
FRT_DECLARE_REAL(nrand48);
FRT_DECLARE_REAL(jrand48);
FRT_DECLARE_REAL(drand48_r);
FRT_DECLARE_REAL(lrand48_r);
FRT_DECLARE_REAL(mrand48_r);
FRT_DECLARE_REAL(srand48_r);
FRT_DECLARE_REAL(seed48_r);
FRT_DECLARE_REAL(lcong48_r);
FRT_DECLARE_REAL(erand48_r);
FRT_DECLARE_REAL(nrand48_r);
FRT_DECLARE_REAL(jrand48_r);
FRT_DECLARE_REAL(random_r);
FRT_DECLARE_REAL(srandom_r);
FRT_DECLARE_REAL(initstate_r);
FRT_DECLARE_REAL(setstate_r);

constexpr u64 kSeedBytes = 3 * sizeof(unsigned short);

// The program's call at pc used these bytes (reads, then writes: a read-modify-write).
void used(u64 pc, const void* p, u64 size, bool write) {
    if (p == nullptr) return;
    if (InterceptorScope scope(program_call(pc)); scope)
        library_access(scope.thread(), pc, p, size, write);
}
void shared_state_written(u64 pc) {
    used(pc, &firstrace_drand48_state, 1, true);
}
// A call that updates the caller's state buffer (a read-modify-write: recorded as the write)
// and stores *result.
template <class Result> void buffer_used(u64 pc, const void* buffer, u64 size, Result* result) {
    InterceptorScope scope(program_call(pc));
    if (!scope) return;
    library_access(scope.thread(), pc, buffer, size, true);
    if constexpr (!std::is_void_v<Result>)
        if (result != nullptr) library_access(scope.thread(), pc, result, sizeof *result, true);
}
// random_r's state: the struct random_data and the array of words it points into.
void random_state_used(u64 pc, const struct random_data* buf) {
    InterceptorScope scope(program_call(pc));
    if (!scope || buf == nullptr) return;
    library_access(scope.thread(), pc, buf, sizeof *buf, true);
    if (buf->state != nullptr && buf->end_ptr != nullptr && buf->end_ptr > buf->state)
        library_access(scope.thread(), pc, buf->state,
                       static_cast<u64>(buf->end_ptr - buf->state) * sizeof *buf->state, true);
}

} // namespace

// --- the shared drand48 state --------------------------------------------------------------------

FRT_EXPORT double drand48() {
    shared_state_written(FRT_CALLER());
    return REAL(drand48)();
}
FRT_EXPORT long lrand48() {
    shared_state_written(FRT_CALLER());
    return REAL(lrand48)();
}
FRT_EXPORT long mrand48() {
    shared_state_written(FRT_CALLER());
    return REAL(mrand48)();
}
FRT_EXPORT void srand48(long seed) {
    shared_state_written(FRT_CALLER());
    REAL(srand48)(seed);
}
FRT_EXPORT unsigned short* seed48(unsigned short seed[3]) {
    used(FRT_CALLER(), seed, kSeedBytes, false);
    shared_state_written(FRT_CALLER());
    return REAL(seed48)(seed);
}
FRT_EXPORT void lcong48(unsigned short param[7]) {
    used(FRT_CALLER(), param, 7 * sizeof *param, false);
    shared_state_written(FRT_CALLER());
    REAL(lcong48)(param);
}

// --- the caller's xsubi
// ----------------------------------------------------------------------------

FRT_EXPORT double erand48(unsigned short xsubi[3]) {
    buffer_used<void>(FRT_CALLER(), xsubi, kSeedBytes, nullptr);
    return REAL(erand48)(xsubi);
}
FRT_EXPORT long nrand48(unsigned short xsubi[3]) {
    buffer_used<void>(FRT_CALLER(), xsubi, kSeedBytes, nullptr);
    return REAL(nrand48)(xsubi);
}
FRT_EXPORT long jrand48(unsigned short xsubi[3]) {
    buffer_used<void>(FRT_CALLER(), xsubi, kSeedBytes, nullptr);
    return REAL(jrand48)(xsubi);
}

// --- the caller's buffers ------------------------------------------------------------------------

FRT_EXPORT int drand48_r(struct drand48_data* buffer, double* result) {
    const int r = REAL(drand48_r)(buffer, result);
    buffer_used(FRT_CALLER(), buffer, sizeof *buffer, result);
    return r;
}
FRT_EXPORT int lrand48_r(struct drand48_data* buffer, long* result) {
    const int r = REAL(lrand48_r)(buffer, result);
    buffer_used(FRT_CALLER(), buffer, sizeof *buffer, result);
    return r;
}
FRT_EXPORT int mrand48_r(struct drand48_data* buffer, long* result) {
    const int r = REAL(mrand48_r)(buffer, result);
    buffer_used(FRT_CALLER(), buffer, sizeof *buffer, result);
    return r;
}
FRT_EXPORT int srand48_r(long seed, struct drand48_data* buffer) {
    buffer_used<void>(FRT_CALLER(), buffer, sizeof *buffer, nullptr);
    return REAL(srand48_r)(seed, buffer);
}
FRT_EXPORT int seed48_r(unsigned short seed[3], struct drand48_data* buffer) {
    used(FRT_CALLER(), seed, kSeedBytes, false);
    buffer_used<void>(FRT_CALLER(), buffer, sizeof *buffer, nullptr);
    return REAL(seed48_r)(seed, buffer);
}
FRT_EXPORT int lcong48_r(unsigned short param[7], struct drand48_data* buffer) {
    used(FRT_CALLER(), param, 7 * sizeof *param, false);
    buffer_used<void>(FRT_CALLER(), buffer, sizeof *buffer, nullptr);
    return REAL(lcong48_r)(param, buffer);
}
FRT_EXPORT int erand48_r(unsigned short xsubi[3], struct drand48_data* buffer, double* result) {
    const int r = REAL(erand48_r)(xsubi, buffer, result);
    buffer_used(FRT_CALLER(), xsubi, kSeedBytes, result);
    used(FRT_CALLER(), buffer, sizeof *buffer, false);
    return r;
}
FRT_EXPORT int nrand48_r(unsigned short xsubi[3], struct drand48_data* buffer, long* result) {
    const int r = REAL(nrand48_r)(xsubi, buffer, result);
    buffer_used(FRT_CALLER(), xsubi, kSeedBytes, result);
    used(FRT_CALLER(), buffer, sizeof *buffer, false);
    return r;
}
FRT_EXPORT int jrand48_r(unsigned short xsubi[3], struct drand48_data* buffer, long* result) {
    const int r = REAL(jrand48_r)(xsubi, buffer, result);
    buffer_used(FRT_CALLER(), xsubi, kSeedBytes, result);
    used(FRT_CALLER(), buffer, sizeof *buffer, false);
    return r;
}
FRT_EXPORT int random_r(struct random_data* buf, int32_t* result) {
    const int r = REAL(random_r)(buf, result);
    random_state_used(FRT_CALLER(), buf);
    used(FRT_CALLER(), result, sizeof *result, true);
    return r;
}
FRT_EXPORT int srandom_r(unsigned seed, struct random_data* buf) {
    const int r = REAL(srandom_r)(seed, buf);
    random_state_used(FRT_CALLER(), buf);
    return r;
}
FRT_EXPORT int initstate_r(unsigned seed, char* state, size_t n, struct random_data* buf) {
    const int r = REAL(initstate_r)(seed, state, n, buf);
    used(FRT_CALLER(), state, n, true);
    random_state_used(FRT_CALLER(), buf);
    return r;
}
FRT_EXPORT int setstate_r(char* state, struct random_data* buf) {
    const int r = REAL(setstate_r)(state, buf);
    random_state_used(FRT_CALLER(), buf);
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(drand48)
FRT_INTERCEPTOR_ALIAS(lrand48)
FRT_INTERCEPTOR_ALIAS(mrand48)
FRT_INTERCEPTOR_ALIAS(srand48)
FRT_INTERCEPTOR_ALIAS(seed48)
FRT_INTERCEPTOR_ALIAS(lcong48)
FRT_INTERCEPTOR_ALIAS(erand48)
FRT_INTERCEPTOR_ALIAS(nrand48)
FRT_INTERCEPTOR_ALIAS(jrand48)
FRT_INTERCEPTOR_ALIAS(drand48_r)
FRT_INTERCEPTOR_ALIAS(lrand48_r)
FRT_INTERCEPTOR_ALIAS(mrand48_r)
FRT_INTERCEPTOR_ALIAS(srand48_r)
FRT_INTERCEPTOR_ALIAS(seed48_r)
FRT_INTERCEPTOR_ALIAS(lcong48_r)
FRT_INTERCEPTOR_ALIAS(erand48_r)
FRT_INTERCEPTOR_ALIAS(nrand48_r)
FRT_INTERCEPTOR_ALIAS(jrand48_r)
FRT_INTERCEPTOR_ALIAS(random_r)
FRT_INTERCEPTOR_ALIAS(srandom_r)
FRT_INTERCEPTOR_ALIAS(initstate_r)
FRT_INTERCEPTOR_ALIAS(setstate_r)
