// Copies of an error object used in several threads ([res.on.data.races]: no race through
// distinct objects). libstdc++ keeps a logic_error's or runtime_error's message in a
// copy-on-write string: the copies share the characters, and the copy destroyed (or assigned
// over) last frees them, through a count the library's destructors update inline. Each round,
// main makes an out_of_range and a system_error, three workers copy them (one assigns its copy
// over an error of its own) and read what(), and main drops its own before or after them.
// main's runtime: the last destruction's free raced with the other copies' reads (46-48 races
// in 10 rounds; clang 14 TSan reports the same class). The destructors and assignments
// of both base classes are now drops of a counted reference (rt_error_message_refcount.cpp).
// Here a worker also reads an error of main's that it holds no copy of, through a pointer:
// main's delete destroys it unordered with that read.
#include <chrono>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

static volatile int seen;

struct Failure : std::runtime_error {
    int code;
    Failure(const char* what, int c) : std::runtime_error(what), code(c) {}
    ~Failure() override { code = -1; } // RACE
};

static void use(std::out_of_range range, std::system_error system, int round, int worker,
                const struct Failure* mains) {
    if (worker == 2) {
        std::out_of_range mine("not yet");
        mine = range;
        if (mine.what()[0] != 'i') __builtin_trap();
    }
    if (range.what()[0] != 'i' || system.what()[0] == 0) __builtin_trap();
    if ((round + worker) & 1) std::this_thread::sleep_for(std::chrono::microseconds(200));
    if (worker == 0) seen = mains->code; // RACE
}

int main() {
    for (int round = 0; round < 10; round++) {
        auto* range = new std::out_of_range("index " + std::to_string(round) + " out of range");
        auto* system = new std::system_error(std::make_error_code(std::errc::timed_out), "wait");
        auto* alone = new Failure("main's own", round);
        std::vector<std::thread> workers;
        for (int w = 0; w < 3; w++)
            workers.emplace_back(use, *range, *system, round, w, alone);
        if (round & 1) std::this_thread::sleep_for(std::chrono::microseconds(300));
        delete range;
        delete system;
        delete alone; // RACE?
        for (std::thread& t : workers)
            t.join();
    }
    return 0;
}
