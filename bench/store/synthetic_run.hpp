// A synthetic analysed run of any size for the results-database benchmark and heavy tests:
// a Trace and an AnalysisResult that satisfy the invariants the database relies on (race and
// partition ids equal to their index, sites inside their events, partitions listing races).
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "firstrace/analysis_result.hpp"
#include "firstrace/model.hpp"

namespace firstrace::bench {

struct SyntheticRun {
    Trace trace;
    AnalysisResult result;
};

// 16 threads x 4000 computation events with 2 access sites each, 2000 locations in 40 files,
// N random races between events of different threads, 2% of them in 200 first partitions.
inline SyntheticRun make_synthetic_run(std::uint64_t races) {
    SyntheticRun s;
    Trace& t = s.trace;
    t.path = "synthetic.trace";
    t.format = "firstrace";
    t.has_clock = true;
    const std::uint32_t processes = 16, events = 4000, locations = 2000, files = 40;
    for (std::uint32_t l = 0; l < locations; ++l)
        t.locations.push_back({"/src/project/module" + std::to_string(l % files) + ".c",
                               10 + l / files, 5, "function_" + std::to_string(l / 7),
                               0x400000 + 16ull * l});
    std::mt19937_64 rng(42);
    std::uint64_t clock = 0;
    for (std::uint32_t p = 0; p < processes; ++p) {
        Process pr;
        pr.name = "thread " + std::to_string(p + 1);
        pr.parent = p == 0 ? kNone : 0;
        for (std::uint32_t e = 0; e < events; ++e) {
            Event ev;
            ev.kind = EventKind::Computation;
            ev.clock_start = ++clock;
            ev.clock_finish = ++clock;
            ev.first_site = static_cast<std::uint32_t>(t.sites.size());
            ev.site_count = 2;
            for (int k = 0; k < 2; ++k) {
                AccessSite site;
                site.location = static_cast<std::uint32_t>(rng() % locations);
                site.flags = k == 0 ? kAccessWrite : kAccessRead;
                site.first_range = static_cast<std::uint32_t>(t.ranges.size());
                site.range_count = 1;
                // One variable per four locations: races pair accesses of one variable, so
                // each race is an instance of a race site (a few thousand sites, as the hot
                // spots of a real program give).
                const std::uint64_t lo = 0x7f0000000000ull + 8 * (site.location / 4);
                t.ranges.push_back({lo, lo + 8});
                t.sites.push_back(site);
            }
            pr.events.push_back(ev);
        }
        t.processes.push_back(std::move(pr));
    }
    AnalysisResult& r = s.result;
    r.ordering = Ordering::Complete;
    const std::uint32_t partitions = 1000, first = 200;
    r.partitions.resize(partitions);
    for (std::uint32_t p = 0; p < partitions; ++p) {
        r.partitions[p].id = p;
        r.partitions[p].first = p < first;
        if (p + 1 < partitions) r.partitions[p].after = {std::max(first, p + 1)};
    }
    r.races.reserve(races);
    // The reading sites (second site of each event) of each variable.
    std::vector<std::vector<EventRef>> readers(locations / 4 + 1);
    for (std::uint32_t p = 0; p < processes; ++p)
        for (std::uint32_t e = 0; e < events; ++e) {
            const AccessSite& site = t.sites[t.processes[p].events[e].first_site + 1];
            readers[(t.ranges[site.first_range].lo - 0x7f0000000000ull) / 8].push_back({p, e});
        }
    for (std::uint64_t i = 0; i < races; ++i) {
        Race race;
        race.id = static_cast<std::uint32_t>(i);
        // A write of event w and a read of the same variable by event x of another thread.
        const std::uint32_t pw = static_cast<std::uint32_t>(rng() % processes);
        const EventRef w{pw, static_cast<std::uint32_t>(rng() % events)};
        const std::uint32_t write_site = t.processes[pw].events[w.index].first_site;
        // What the race conflicts on is recomputed from the two events (race_accesses.hpp):
        // at least this variable, written by w and read by x.
        const Interval variable = t.ranges[t.sites[write_site].first_range];
        const auto& candidates = readers[(variable.lo - 0x7f0000000000ull) / 8];
        EventRef x = candidates[rng() % candidates.size()];
        for (int tries = 0; x.process == pw && tries < 16; ++tries)
            x = candidates[rng() % candidates.size()];
        if (x.process == pw) x = {(pw + 1) % processes, static_cast<std::uint32_t>(rng() % events)};
        const bool write_first = pw < x.process;
        race.a = write_first ? w : x;
        race.b = write_first ? x : w;
        const std::uint64_t roll = rng() % 100;
        race.status = roll < 30   ? RaceStatus::Feasible
                      : roll < 40 ? RaceStatus::FeasibleEc
                                  : RaceStatus::Unvalidated;
        if (race.status == RaceStatus::Unvalidated)
            race.tangle = static_cast<std::uint32_t>(rng() % 5000);
        race.actual = (roll % 2) == 0;
        race.partition = (rng() % 50 == 0)
                             ? static_cast<std::uint32_t>(rng() % first)
                             : first + static_cast<std::uint32_t>(rng() % (partitions - first));
        r.races.push_back(race);
    }
    for (const Race& race : r.races)
        ++r.partitions[race.partition].race_count;
    for (std::uint32_t i = 0; i < 100000; ++i) {
        const auto p = static_cast<std::uint32_t>(rng() % processes), q = (p + 1) % processes;
        r.edges.push_back({i % 3 == 0   ? EdgeKind::Ordering
                           : i % 3 == 1 ? EdgeKind::SharedData
                                        : EdgeKind::EventControl,
                           {p, static_cast<std::uint32_t>(rng() % events)},
                           {q, static_cast<std::uint32_t>(rng() % events)},
                           i % 3 == 1 && i % 2 == 0});
    }
    r.counts.events = t.event_count();
    r.counts.computation_events = t.event_count();
    r.counts.accesses = t.access_count();
    r.counts.processes = processes;
    r.counts.apparent = races;
    for (const Race& race : r.races) {
        r.counts.feasible += race.status == RaceStatus::Feasible;
        r.counts.feasible_ec += race.status == RaceStatus::FeasibleEc;
        r.counts.unvalidated += race.status == RaceStatus::Unvalidated;
        r.counts.actual += race.actual.value_or(false);
    }
    r.counts.tangles = 5000;
    r.counts.partitions = partitions;
    r.counts.first_partitions = first;
    return s;
}

} // namespace firstrace::bench
