// STD traces of the stress suite's shapes (issue 14): the worst cases of a race analysis.
//   hot      one hot variable, no common lock (each thread's own lock splits its events)
//   vars     100 shared variables, no common lock
//   waves    fork/join waves of racy threads (main forks a wave, joins it, forks the next)
//   lock     one lock shared by all: every access inside it, no race
//   low      locked data with rare unlocked accesses (low conflict)
//   churn    many short-lived threads handing over one lock, never joined
//   random   the random generator of the differential tests (bench/std_trace_generator.hpp)
// Lines are written in a random interleaving; line order is the complete ordering.
#pragma once

#include <cstdint>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "std_trace_generator.hpp"

namespace firstrace::bench {

struct StressShape {
    std::string name;
    std::uint32_t threads = 8;
    std::uint64_t lines = 100000;
    std::uint64_t seed = 1;
};

class StressTraceWriter {
  public:
    explicit StressTraceWriter(const StressShape& s) : s_(s), rng_(s.seed) {}

    std::uint64_t write(std::ostream& out) {
        if (s_.name == "hot") return unlocked(out, 1, 20);
        if (s_.name == "vars") return unlocked(out, 100, 20);
        if (s_.name == "waves") return waves(out, 8);
        if (s_.name == "lock") return locked(out, 0.0);
        if (s_.name == "low") return locked(out, 0.002);
        if (s_.name == "churn") return churn(out);
        if (s_.name == "random") {
            GeneratorParams p;
            p.threads = s_.threads;
            p.locks = 4;
            p.variables = 1000;
            p.locations = 1000;
            p.operations = s_.lines;
            p.seed = s_.seed;
            return StdTraceGenerator(p).write(out);
        }
        throw std::invalid_argument("unknown stress shape '" + s_.name + "'");
    }

  private:
    // Threads T1..Tn forked by T0 and joined at the end; each access is a read or a write of
    // one of `variables` variables; every `per_event` accesses a thread takes and releases its
    // own lock, which splits its events and orders nothing across threads.
    std::uint64_t unlocked(std::ostream& out, std::uint32_t variables, std::uint32_t per_event) {
        std::uint64_t lines = 0;
        for (std::uint32_t t = 1; t <= s_.threads; ++t)
            line(out, lines, 0, "fork(T" + std::to_string(t) + ")");
        std::vector<std::uint32_t> done(s_.threads + 1, 0);
        while (lines + 2 * s_.threads < s_.lines) {
            const std::uint32_t t = 1 + pick(s_.threads);
            if (++done[t] % per_event == 0) {
                line(out, lines, t, "acq(L" + std::to_string(t) + ")");
                line(out, lines, t, "rel(L" + std::to_string(t) + ")");
            } else {
                line(out, lines, t, access(variables));
            }
        }
        for (std::uint32_t t = 1; t <= s_.threads; ++t)
            line(out, lines, 0, "join(T" + std::to_string(t) + ")");
        return lines;
    }

    std::uint64_t waves(std::ostream& out, std::uint32_t wave_count) {
        std::uint64_t lines = 0;
        const std::uint64_t per_wave = s_.lines / wave_count;
        std::uint32_t next = 1;
        for (std::uint32_t w = 0; w < wave_count; ++w) {
            const std::uint32_t first = next;
            for (std::uint32_t i = 0; i < s_.threads; ++i)
                line(out, lines, 0, "fork(T" + std::to_string(next++) + ")");
            std::vector<std::uint32_t> done(s_.threads, 0);
            const std::uint64_t end = lines + per_wave;
            while (lines + s_.threads < end) {
                const std::uint32_t i = pick(s_.threads);
                const std::uint32_t t = first + i;
                if (++done[i] % 20 == 0) {
                    line(out, lines, t, "acq(L" + std::to_string(t) + ")");
                    line(out, lines, t, "rel(L" + std::to_string(t) + ")");
                } else {
                    line(out, lines, t, access(100));
                }
            }
            for (std::uint32_t t = first; t < next; ++t)
                line(out, lines, 0, "join(T" + std::to_string(t) + ")");
        }
        return lines;
    }

    // Every access inside the common lock L0, except a share `unlocked` of accesses to one of
    // ten unprotected variables.
    std::uint64_t locked(std::ostream& out, double unlocked) {
        std::uint64_t lines = 0;
        for (std::uint32_t t = 1; t <= s_.threads; ++t)
            line(out, lines, 0, "fork(T" + std::to_string(t) + ")");
        while (lines + 2 * s_.threads < s_.lines) {
            const std::uint32_t t = 1 + pick(s_.threads);
            if (std::bernoulli_distribution(unlocked)(rng_)) {
                line(out, lines, t, access(10, "U"));
                continue;
            }
            line(out, lines, t, "acq(L0)");
            for (std::uint32_t k = 1 + pick(4); k > 0; --k)
                line(out, lines, t, access(1000));
            line(out, lines, t, "rel(L0)");
        }
        for (std::uint32_t t = 1; t <= s_.threads; ++t)
            line(out, lines, 0, "join(T" + std::to_string(t) + ")");
        return lines;
    }

    // Short-lived threads, each forked by T0, taking the lock after the previous one released
    // it; T0 writes the shared variable at the end (racing with all of them).
    std::uint64_t churn(std::ostream& out) {
        std::uint64_t lines = 0;
        for (std::uint32_t t = 1; lines + 6 < s_.lines; ++t) {
            const std::string name = "T" + std::to_string(t);
            line(out, lines, 0, "fork(" + name + ")");
            out << name << "|acq(L0)|c.c:1\n"
                << name << "|w(V0)|c.c:2\n"
                << name << "|rel(L0)|c.c:3\n";
            lines += 3;
        }
        line(out, lines, 0, "w(V0)");
        return lines;
    }

    std::string access(std::uint32_t variables, const std::string& prefix = "V") {
        const bool write = std::bernoulli_distribution(0.5)(rng_);
        return std::string(write ? "w(" : "r(") + prefix + std::to_string(pick(variables)) + ")";
    }
    void line(std::ostream& out, std::uint64_t& lines, std::uint32_t thread,
              const std::string& op) {
        out << 'T' << thread << '|' << op << "|s.c:" << 1 + pick(100) << '\n';
        ++lines;
    }
    std::uint32_t pick(std::uint32_t n) {
        return n == 0 ? 0 : std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng_);
    }

    StressShape s_;
    std::mt19937_64 rng_;
};

} // namespace firstrace::bench
