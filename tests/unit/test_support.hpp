// Helpers shared by the unit tests: STD traces from strings and random STD traces.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "firstrace/trace_loader.hpp"
#include "std_trace_generator.hpp"

namespace firstrace::test {

// Writes `text` to a temporary .std file and returns its path (removed by the destructor).
class TempFile {
  public:
    explicit TempFile(const std::string& text, const std::string& suffix = ".std") {
        char name[] = "/tmp/firstrace-test-XXXXXX";
        const int fd = mkstemp(name);
        if (fd < 0) throw std::runtime_error("mkstemp failed");
        close(fd);
        std::remove(name);
        path_ = std::string(name) + suffix;
        std::ofstream(path_) << text;
    }
    ~TempFile() { std::remove(path_.c_str()); }
    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

inline Trace parse_std(const std::string& text) {
    TempFile file(text);
    return read_std_trace(file.path());
}

inline std::string random_std(const bench::GeneratorParams& params) {
    std::ostringstream out;
    bench::StdTraceGenerator(params).write(out);
    return out.str();
}

// Random OS threads, private storage and atomic sites on a parsed STD trace (whose addresses are
// variable ids), for the differential tests of private storage (Trace::private_to_both) and of
// atomic/plain conflicts, which STD text cannot express. Processes share 1-3 OS threads (some
// none), whose stacks and TLS blocks cover some of the variables.
inline void add_os_threads_and_atomics(Trace& trace, std::uint64_t seed) {
    std::mt19937_64 rng(seed * 104729 + 17);
    auto pick = [&](std::uint64_t lo, std::uint64_t hi) {
        return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
    };
    std::uint64_t addresses = 1;
    for (const Interval& r : trace.ranges)
        addresses = std::max(addresses, r.hi);
    const auto threads = static_cast<std::uint32_t>(pick(1, 3));
    trace.os_threads.clear();
    for (std::uint32_t i = 0; i < threads; ++i) {
        OsThread t;
        t.tid = 100 + i;
        t.stack.lo = pick(0, addresses - 1);
        t.stack.hi = pick(t.stack.lo + 1, addresses);
        if (pick(0, 1) == 1) {
            t.tls.lo = pick(0, addresses - 1);
            t.tls.hi = t.tls.lo + 1;
        }
        trace.os_threads.push_back(t);
    }
    for (Process& p : trace.processes) {
        const auto t = static_cast<std::uint32_t>(pick(0, threads));
        p.os_thread = t == threads ? kNone : t;
        if (p.os_thread != kNone) {
            const Interval& stack = trace.os_threads[p.os_thread].stack;
            p.private_below = pick(stack.lo, stack.hi);
        }
    }
    for (std::size_t s = 0; s < trace.sites.size(); ++s)
        if (pick(0, 3) == 0) {
            AccessSite site = trace.sites[s];
            site.flags |= kAccessAtomic;
            trace.sites.set(s, site);
        }
}

// Scattered accesses on a parsed STD trace, the shape of real programs' events (issue 11,
// DESIGN-NOTES "Real programs from Debian"): each computation event gets 0-5 sites of 1-12
// ranges over a byte-addressed space, most of a few bytes, some wide, so that ranges of one
// event's sites overlap and abut with different flags and a wide range spans many others'
// ends. Most sites keep their ranges sorted and disjoint (as the tracer writes them); one in
// four has them in any order, overlapping. One site in five is atomic, its ranges in a small
// region of atomic variables at the top of the space (which wide plain ranges reach too). The
// variables become bytes (no names).
inline void scatter_accesses(Trace& trace, std::uint64_t seed) {
    std::mt19937_64 rng(seed * 7727 + 29);
    auto pick = [&](std::uint64_t lo, std::uint64_t hi) {
        return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
    };
    const std::uint64_t space = pick(64, 4000);
    const std::uint64_t atomics = pick(8, 32); // [space, space + atomics)
    // One seed in four puts the space across 2^48, where the model's range table stops packing
    // a range into a word (range_table.hpp), so that events mix packed and wide ranges.
    const std::uint64_t base = seed % 4 == 2 ? (std::uint64_t{1} << 48) - space / 2 : 0;
    std::vector<std::uint32_t> old_locations;
    for (std::size_t s = 0; s < trace.sites.size(); ++s)
        old_locations.push_back(trace.sites[s].location);
    trace.sites = SiteTable();
    trace.ranges.clear();
    trace.variable_names.clear();
    for (Process& p : trace.processes)
        for (Event& e : p.events) {
            e.first_site = static_cast<std::uint32_t>(trace.sites.size());
            e.site_count = 0;
            if (e.kind != EventKind::Computation) continue;
            const auto sites = static_cast<std::uint32_t>(pick(0, 5));
            for (std::uint32_t s = 0; s < sites; ++s) {
                AccessSite site;
                site.location = old_locations.empty()
                                    ? kNone
                                    : old_locations[pick(0, old_locations.size() - 1)];
                site.flags = std::uint8_t(pick(1, 3)); // read, write or both
                const bool atomic = pick(0, 4) == 0;
                if (atomic) site.flags |= kAccessAtomic;
                std::vector<Interval> ranges(pick(1, 12));
                for (Interval& r : ranges) {
                    const std::uint64_t roll = pick(0, 99);
                    // One range in a hundred about 2^16 bytes long: around the longest range
                    // that a word of the range table holds.
                    const std::uint64_t width = roll < 80   ? pick(1, 8)
                                                : roll < 95 ? pick(9, 32)
                                                : roll < 99 ? pick(33, 120)
                                                            : pick(0xfff0, 0x10010);
                    r.lo = base + (atomic ? space + pick(0, atomics - 1) : pick(0, space - 1));
                    r.hi = r.lo + (atomic ? pick(1, 8) : width);
                }
                if (pick(0, 3) != 0) { // sorted, disjoint, not adjacent
                    std::sort(ranges.begin(), ranges.end(),
                              [](const Interval& x, const Interval& y) { return x.lo < y.lo; });
                    std::size_t out = 0;
                    for (const Interval& r : ranges) {
                        if (out > 0 && r.lo <= ranges[out - 1].hi)
                            ranges[out - 1].hi = std::max(ranges[out - 1].hi, r.hi);
                        else
                            ranges[out++] = r;
                    }
                    ranges.resize(out);
                }
                site.first_range = static_cast<std::uint32_t>(trace.ranges.size());
                site.range_count = static_cast<std::uint32_t>(ranges.size());
                for (const Interval& r : ranges)
                    trace.ranges.push_back(r);
                trace.sites.push_back(site);
                ++e.site_count;
            }
        }
}

// Builds the events of a hand-made byte-addressed trace: each event gets the next two clock
// readings; a computation event one site of one byte per access; a synchronization operation
// the next counter of its object when the object is below `objects` (0 otherwise).
struct TraceEventBuilder {
    struct Access {
        std::uint64_t address;
        std::uint8_t flags;
    };
    Trace& trace;
    std::vector<std::uint64_t> counters;
    std::uint64_t now = 0;

    TraceEventBuilder(Trace& t, std::size_t objects) : trace(t), counters(objects, 0) {}
    void add(std::uint32_t p, Event e) {
        e.clock_start = ++now;
        e.clock_finish = ++now;
        trace.processes[p].events.push_back(e);
    }
    void compute(std::uint32_t p, std::initializer_list<Access> accesses) {
        Event e;
        e.first_site = static_cast<std::uint32_t>(trace.sites.size());
        for (const Access& a : accesses) {
            AccessSite site;
            site.location = p;
            site.flags = a.flags;
            site.first_range = static_cast<std::uint32_t>(trace.ranges.size());
            site.range_count = 1;
            trace.ranges.push_back({a.address, a.address + 1});
            trace.sites.push_back(site);
        }
        e.site_count = static_cast<std::uint32_t>(accesses.size());
        add(p, e);
    }
    void sync(std::uint32_t p, EventKind kind, std::uint32_t object) {
        Event e;
        e.kind = kind;
        e.object = object;
        e.counter = object < counters.size() ? counters[object]++ : 0;
        e.location = p;
        add(p, e);
    }
};

// Long runs of releases and acquires on one atomic counter between 2-4 processes (the shape of
// samples/atomic-release-loop.c built by clang -O2, whose unrolled loop releases at ten sites:
// every release is written): each step, one process releases the counter with an RMW, or
// acquires it with a load, or spins on it with a relaxed load, or stores a second atomic, or
// touches plain variables (some also in the same event as an atomic access), each computation
// event followed by its synchronization. Runs of one kind are long, so that an event is
// unordered with long stretches of another process's atomic accesses. Byte addresses: 0 the
// counter, 1 a second atomic, 2-5 plain variables; object 0 the counter, 1 the second atomic.
// The first run is process 0's, kind 0.
inline Trace release_runs_trace(std::uint64_t seed) {
    std::mt19937_64 rng(seed * 6151 + 3);
    auto pick = [&](std::uint64_t lo, std::uint64_t hi) {
        return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
    };
    Trace trace;
    trace.path = "release-runs-" + std::to_string(seed);
    trace.format = "std";
    trace.has_clock = true;
    const auto processes = static_cast<std::uint32_t>(pick(2, 4));
    for (std::uint32_t p = 0; p < processes; ++p) {
        Process process;
        process.name = "T" + std::to_string(p);
        process.parent = p == 0 ? kNone : 0;
        trace.processes.push_back(process);
        trace.locations.push_back({"runs.c", p + 1, 0, "f", 0, kNone});
    }
    trace.objects.push_back({SyncObjectKind::Atomic, "counter", 0, 0});
    trace.objects.push_back({SyncObjectKind::Atomic, "flag", 1, 0});
    TraceEventBuilder events(trace, 2);
    auto compute = [&](std::uint32_t p, std::initializer_list<TraceEventBuilder::Access> accesses) {
        events.compute(p, accesses);
    };
    auto sync = [&](std::uint32_t p, EventKind kind, std::uint32_t object) {
        events.sync(p, kind, object);
    };
    for (std::uint32_t p = 1; p < processes; ++p)
        sync(0, EventKind::Fork, p);
    constexpr std::uint8_t kRmw = kAccessRead | kAccessWrite | kAccessAtomic;
    constexpr std::uint8_t kLoad = kAccessRead | kAccessAtomic;
    constexpr std::uint8_t kStore = kAccessWrite | kAccessAtomic;
    const auto steps = pick(20, 70);
    std::uint32_t p = 0;
    std::uint64_t action = 0;
    // Processes 2 and 3 may keep off the counter (the second atomic and plain data only), so
    // that events of 0 and 1 on it stay unlinked in traces of 3 or 4 processes too.
    std::vector<bool> off_counter(processes, false);
    for (std::uint32_t q = 2; q < processes; ++q)
        off_counter[q] = pick(0, 1) == 1;
    for (std::uint64_t step = 0; step < steps; ++step) {
        if (pick(0, 5) == 0) { // a new run: another process, another kind
            p = static_cast<std::uint32_t>(pick(0, processes - 1));
            action = off_counter[p] ? pick(6, 7) : pick(0, 9);
        }
        const std::uint64_t plain = 2 + pick(0, 3);
        const std::uint8_t plain_flags = pick(0, 1) ? kAccessWrite : kAccessRead;
        switch (action) {
        case 0:
        case 1:
        case 2: // release RMW of the counter
            compute(p, {{0, kRmw}});
            sync(p, EventKind::Release, 0);
            break;
        case 3:
        case 4: // acquire load of the counter
            compute(p, {{0, kLoad}});
            sync(p, EventKind::Acquire, 0);
            break;
        case 5: // relaxed load of the counter (a spin), no synchronization
            compute(p, {{0, kLoad}});
            sync(p, EventKind::Other, kNone);
            break;
        case 6: // the second atomic, stored and released or acquired
            compute(p, {{1, pick(0, 1) ? kStore : kLoad}});
            sync(p, pick(0, 1) ? EventKind::Release : EventKind::Acquire, 1);
            break;
        case 7: // plain data
            compute(p, {{plain, plain_flags}});
            sync(p, EventKind::Other, kNone);
            break;
        default: // the counter and plain data in one event
            compute(p, {{0, pick(0, 1) ? kRmw : kLoad}, {plain, plain_flags}});
            sync(p, pick(0, 1) ? EventKind::Release : EventKind::Other, 0);
            break;
        }
    }
    for (std::uint32_t q = 1; q < processes; ++q)
        sync(0, EventKind::Join, q);
    return trace;
}

} // namespace firstrace::test
