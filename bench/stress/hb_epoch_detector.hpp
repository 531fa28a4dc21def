// The stress suite's yardstick (issue 14): an epoch-based happens-before race detector in the
// style of FastTrack (Flanagan & Freund, PLDI 2009) and RAPID's HBEpoch, on the same STD trace,
// so that the suite measures firstrace against it side by side on one machine. It parses the
// STD text itself (no firstrace code), keeps a vector clock per thread and lock, a write epoch
// per variable and a read epoch that grows into a read vector clock only while reads are
// concurrent, and counts the racy accesses (an access not ordered after a conflicting earlier
// one), which is what RAPID's HBEpoch reports.
#pragma once

#include <algorithm>
#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace firstrace::bench {

class HbEpochDetector {
  public:
    struct Result {
        std::uint64_t lines = 0;
        std::uint64_t racy_accesses = 0;
        std::uint64_t threads = 0;
        std::uint64_t variables = 0;
    };

    Result run(std::istream& in) {
        Result r;
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#') continue;
            ++r.lines;
            const std::size_t bar1 = line.find('|');
            const std::size_t bar2 = line.find('|', bar1 + 1);
            const std::size_t open = line.find('(', bar1 + 1);
            const std::size_t close = line.find(')', open + 1);
            if (bar1 == std::string::npos || open == std::string::npos || open > bar2 ||
                close == std::string::npos)
                throw std::runtime_error("hb: malformed line " + std::to_string(r.lines));
            const std::uint32_t t = thread(std::string_view(line).substr(0, bar1));
            const std::string_view op = std::string_view(line).substr(bar1 + 1, open - bar1 - 1);
            const std::string_view arg = std::string_view(line).substr(open + 1, close - open - 1);
            if (op == "r" || op == "w") {
                r.racy_accesses += access(t, variable(arg), op == "w");
            } else if (op == "acq") {
                join_into(t, lock(arg));
            } else if (op == "rel") {
                locks_[lock(arg)] = clocks_[t];
                tick(t);
            } else if (op == "fork") {
                const std::uint32_t u = thread(arg);
                join_clock(clocks_[u], clocks_[t]);
                tick(t);
            } else if (op == "join") {
                const std::uint32_t u = thread(arg);
                join_clock(clocks_[t], clocks_[u]);
                tick(u);
            } else if (op != "begin" && op != "end") {
                throw std::runtime_error("hb: unknown operation on line " +
                                         std::to_string(r.lines));
            }
        }
        r.threads = clocks_.size();
        r.variables = vars_.size();
        return r;
    }

  private:
    using Clock = std::vector<std::uint32_t>;
    // An epoch c@t: clock value c of thread t (t == kNoThread: no access yet).
    static constexpr std::uint32_t kNoThread = ~0u;
    struct Epoch {
        std::uint32_t thread = kNoThread;
        std::uint32_t clock = 0;
    };
    struct Variable {
        Epoch write;
        Epoch read;                     // the last read, while reads are totally ordered
        bool shared = false;            // reads concurrent: read_clocks_[slot] holds them
        std::uint32_t slot = kNoThread; // the variable's read clock, allocated once
    };

    std::uint32_t thread(std::string_view name) {
        auto [it, inserted] =
            thread_ids_.try_emplace(std::string(name), static_cast<std::uint32_t>(clocks_.size()));
        if (inserted) {
            clocks_.emplace_back();
            tick(it->second);
        }
        return it->second;
    }
    std::uint32_t lock(std::string_view name) {
        auto [it, inserted] =
            lock_ids_.try_emplace(std::string(name), static_cast<std::uint32_t>(locks_.size()));
        if (inserted) locks_.emplace_back();
        return it->second;
    }
    std::uint32_t variable(std::string_view name) {
        auto [it, inserted] =
            var_ids_.try_emplace(std::string(name), static_cast<std::uint32_t>(vars_.size()));
        if (inserted) vars_.emplace_back();
        return it->second;
    }

    static std::uint32_t at(const Clock& c, std::uint32_t t) { return t < c.size() ? c[t] : 0; }
    static void join_clock(Clock& into, const Clock& from) {
        if (into.size() < from.size()) into.resize(from.size(), 0);
        for (std::size_t i = 0; i < from.size(); ++i)
            into[i] = std::max(into[i], from[i]);
    }
    void tick(std::uint32_t t) {
        Clock& c = clocks_[t];
        if (c.size() <= t) c.resize(t + 1, 0);
        ++c[t];
    }
    void join_into(std::uint32_t t, std::uint32_t l) { join_clock(clocks_[t], locks_[l]); }
    bool ordered(const Epoch& e, std::uint32_t t) const {
        return e.thread == kNoThread || e.clock <= at(clocks_[t], e.thread);
    }

    // FastTrack's read and write rules; returns whether the access races.
    bool access(std::uint32_t t, std::uint32_t v, bool write) {
        Variable& x = vars_[v];
        const Clock& c = clocks_[t];
        const Epoch now{t, at(c, t)};
        bool racy = !ordered(x.write, t);
        if (!write) {
            if (x.shared) {
                Clock& rc = read_clocks_[x.slot];
                if (rc.size() <= t) rc.resize(t + 1, 0);
                rc[t] = now.clock;
            } else if (x.read.thread == t || ordered(x.read, t)) {
                x.read = now;
            } else {
                if (x.slot == kNoThread) {
                    x.slot = static_cast<std::uint32_t>(read_clocks_.size());
                    read_clocks_.emplace_back();
                }
                Clock& rc = read_clocks_[x.slot];
                rc.assign(std::max(x.read.thread, t) + 1, 0);
                rc[x.read.thread] = x.read.clock;
                rc[t] = now.clock;
                x.shared = true;
            }
            return racy;
        }
        if (x.shared) {
            const Clock& rc = read_clocks_[x.slot];
            for (std::uint32_t u = 0; u < rc.size() && !racy; ++u)
                racy = rc[u] > at(c, u);
            x.shared = false; // the write orders every later access after these reads
            x.read = Epoch{};
        } else {
            racy = racy || !ordered(x.read, t);
        }
        x.write = now;
        return racy;
    }

    std::unordered_map<std::string, std::uint32_t> thread_ids_, lock_ids_, var_ids_;
    std::vector<Clock> clocks_, locks_;
    std::vector<Variable> vars_;
    std::vector<Clock> read_clocks_;
};

} // namespace firstrace::bench
