// Random, valid STD traces (RAPID's text format) for the differential tests and the benchmarks:
// threads are forked and joined (possibly nested), locks are acquired and released properly
// (re-entrantly too), and reads/writes hit a configurable set of shared variables, part of them
// inside critical sections. The interleaving is random; line order is the complete ordering.
#pragma once

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

namespace firstrace::bench {

struct GeneratorParams {
    std::uint32_t threads = 4; // besides the main thread T0
    std::uint32_t locks = 2;
    std::uint32_t variables = 8;
    std::uint64_t operations = 200; // accesses + sync operations over all threads
    double write_ratio = 0.4;
    double sync_ratio = 0.15;     // fraction of operations that are acq/rel
    double protected_ratio = 0.5; // accesses made while holding a lock go to "protected" vars
    std::uint32_t locations = 20;
    bool nested_forks = true; // children may fork grandchildren
    std::uint64_t seed = 1;
};

class StdTraceGenerator {
  public:
    explicit StdTraceGenerator(const GeneratorParams& params) : p_(params), rng_(params.seed) {}

    // Writes the whole trace; returns the number of lines.
    std::uint64_t write(std::ostream& out) {
        struct Thread {
            std::string name;
            std::uint32_t parent = 0;
            bool alive = false, finished = false, joined = false;
            std::vector<std::uint32_t> held; // lock stack (may repeat: re-entrant)
            std::uint64_t budget = 0;
        };
        std::vector<Thread> threads(p_.threads + 1);
        for (std::uint32_t i = 0; i <= p_.threads; ++i)
            threads[i].name = "T" + std::to_string(i);
        threads[0].alive = true;
        std::vector<std::uint32_t> lock_holder(p_.locks, UINT32_MAX);
        const std::uint64_t per_thread =
            std::max<std::uint64_t>(1, p_.operations / (p_.threads + 1));
        for (auto& t : threads)
            t.budget = per_thread;
        std::uint32_t next_child = 1;
        std::uint64_t lines = 0;
        auto loc = [&] { return "f.c:" + std::to_string(1 + pick(p_.locations)); };
        auto emit = [&](const Thread& t, const std::string& op) {
            out << t.name << '|' << op << '|' << loc() << '\n';
            ++lines;
        };
        std::vector<std::uint32_t> runnable;
        for (;;) {
            runnable.clear();
            for (std::uint32_t i = 0; i < threads.size(); ++i)
                if (threads[i].alive && !threads[i].finished) runnable.push_back(i);
            if (runnable.empty()) break;
            const std::uint32_t ti = runnable[pick(static_cast<std::uint32_t>(runnable.size()))];
            Thread& t = threads[ti];
            // Fork children early: parents (main, or any child when nesting) create threads.
            if (next_child <= p_.threads && (ti == 0 || p_.nested_forks) && chance(0.3)) {
                threads[next_child].alive = true;
                threads[next_child].parent = ti;
                emit(t, "fork(" + threads[next_child].name + ")");
                ++next_child;
                continue;
            }
            if (t.budget == 0) {
                if (!t.held.empty()) {
                    release(t.held.back(), t, lock_holder, emit);
                    continue;
                }
                // Join finished children, then finish (main waits for all to be forked).
                bool joined = false;
                for (std::uint32_t c = 1; c < threads.size() && !joined; ++c)
                    if (threads[c].parent == ti && threads[c].alive && threads[c].finished &&
                        !threads[c].joined && chance(0.7)) {
                        threads[c].joined = true;
                        emit(t, "join(" + threads[c].name + ")");
                        joined = true;
                    }
                if (joined) continue;
                if (ti == 0 && next_child <= p_.threads) continue;
                bool children_running = false;
                for (std::uint32_t c = 1; c < threads.size(); ++c)
                    children_running |=
                        threads[c].parent == ti && threads[c].alive && !threads[c].finished;
                if (ti == 0 && children_running) continue;
                t.finished = true;
                continue;
            }
            --t.budget;
            if (p_.locks > 0 && chance(p_.sync_ratio)) {
                if (!t.held.empty() && chance(0.5)) {
                    release(t.held.back(), t, lock_holder, emit);
                } else {
                    const std::uint32_t l = pick(p_.locks);
                    if (lock_holder[l] == UINT32_MAX || lock_holder[l] == ti) {
                        lock_holder[l] = ti;
                        t.held.push_back(l);
                        emit(t, "acq(L" + std::to_string(l) + ")");
                    }
                }
                continue;
            }
            const bool write = chance(p_.write_ratio);
            std::uint32_t v = pick(p_.variables);
            // Accesses inside a critical section mostly touch that lock's variables.
            if (!t.held.empty() && chance(p_.protected_ratio))
                v = t.held.back() % std::max<std::uint32_t>(1, p_.variables);
            emit(t, std::string(write ? "w" : "r") + "(V" + std::to_string(v) + ")");
        }
        return lines;
    }

  private:
    template <class Emit, class T>
    void release(std::uint32_t l, T& t, std::vector<std::uint32_t>& holder, Emit& emit) {
        t.held.pop_back();
        bool still = false;
        for (auto h : t.held)
            still |= h == l;
        if (!still) holder[l] = UINT32_MAX;
        emit(t, "rel(L" + std::to_string(l) + ")");
    }
    std::uint32_t pick(std::uint32_t n) {
        return n == 0 ? 0 : std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng_);
    }
    bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

    GeneratorParams p_;
    std::mt19937_64 rng_;
};

} // namespace firstrace::bench
