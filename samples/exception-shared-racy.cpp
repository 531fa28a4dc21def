// An exception object shared between threads, written by its thrower after it was handed over.
// A worker catches its exception and hands an exception_ptr to main under a mutex; main rethrows
// it, reads it and drops its pointer. libsupc++ counts the references in the object's header, and
// whichever of the worker's handler (its end, __cxa_end_catch) and main's pointer goes last runs
// the destructor and frees the object: the worker in odd rounds, main in even ones. Those counts
// are the library's own atomics: main's runtime reported the worker's destructor (and free)
// racing with main's read of the object (16 of 20 rounds). The drops are now releases of the
// count, the destroying one acquires them (rt_exception_refcount.cpp). Here the worker's handler
// writes the object after handing it over, unordered with main's read.
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

struct Failure : std::exception {
    int code;
    explicit Failure(int c) : code(c) {}
    ~Failure() override { code = -1; }
};

std::mutex m;
std::condition_variable handed_over;
std::exception_ptr handed;

static void worker(int round) {
    try {
        throw Failure(round);
    } catch (Failure& f) {
        {
            std::lock_guard<std::mutex> g(m);
            handed = std::current_exception();
        }
        handed_over.notify_one();
        f.code = round; // RACE
        if (round & 1) std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
}

int main() {
    for (int round = 0; round < 20; round++) {
        std::thread t(worker, round);
        std::exception_ptr ep;
        {
            std::unique_lock<std::mutex> l(m);
            handed_over.wait(l, [] { return handed != nullptr; });
            ep = std::move(handed);
            handed = nullptr;
        }
        try {
            std::rethrow_exception(ep);
        } catch (const Failure& f) {
            if (f.code != round) return 1; // RACE
        }
        ep = nullptr;
        if (!(round & 1)) std::this_thread::sleep_for(std::chrono::microseconds(300));
        t.join();
    }
    return 0;
}
