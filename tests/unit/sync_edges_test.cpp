// Synchronization edges of G for the operations STD cannot express (DESIGN step 1): semaphores
// with initial values, barrier episodes, atomics' release/acquire, and fork/join.
#include <gtest/gtest.h>

#include "apparent_races.hpp"
#include "firstrace/analysis.hpp"
#include "firstrace/race_accesses.hpp"
#include "test_support.hpp"

namespace firstrace {
namespace {

// Builds traces event by event: each process is a list of events; computation events write or
// read one address.
class TraceBuilder {
  public:
    explicit TraceBuilder(std::uint32_t processes) {
        for (std::uint32_t i = 0; i < processes; ++i)
            trace_.processes.push_back({"P" + std::to_string(i), kNone, {}});
        trace_.locations.push_back({"x.c", 1, 0, "", 0});
    }
    std::uint32_t object(SyncObjectKind kind, std::int64_t initial = 0) {
        trace_.objects.push_back({kind, "o" + std::to_string(trace_.objects.size()), 0, initial});
        return static_cast<std::uint32_t>(trace_.objects.size() - 1);
    }
    TraceBuilder& access(std::uint32_t p, std::uint8_t flags, std::uint64_t address) {
        Event e;
        e.first_site = static_cast<std::uint32_t>(trace_.sites.size());
        e.site_count = 1;
        trace_.sites.push_back({0, flags, static_cast<std::uint32_t>(trace_.ranges.size()), 1});
        trace_.ranges.push_back({address, address + 4});
        trace_.processes[p].events.push_back(e);
        return *this;
    }
    TraceBuilder& sync(std::uint32_t p, EventKind kind, std::uint32_t object,
                       std::uint64_t counter) {
        Event e;
        e.kind = kind;
        e.object = object;
        e.counter = counter;
        trace_.processes[p].events.push_back(e);
        return *this;
    }
    const Trace& trace() const { return trace_; }

  private:
    Trace trace_;
};

std::size_t races_of(const Trace& t) {
    return analyze(t).races.size();
}

TEST(SyncEdges, SemaphoreWaitIsOrderedAfterThePostThatEnabledIt) {
    TraceBuilder b(2);
    const auto sem = b.object(SyncObjectKind::Semaphore, 0);
    b.access(0, kAccessWrite, 100).sync(0, EventKind::SemPost, sem, 0);
    b.sync(1, EventKind::SemWait, sem, 1).access(1, kAccessRead, 100);
    EXPECT_EQ(races_of(b.trace()), 0u);
}

TEST(SyncEdges, SemaphoreInitialValueLetsTheFirstWaitsPassUnordered) {
    TraceBuilder b(2);
    const auto sem = b.object(SyncObjectKind::Semaphore, 1);
    b.access(0, kAccessWrite, 100).sync(0, EventKind::SemPost, sem, 1);
    b.sync(1, EventKind::SemWait, sem, 0).access(1, kAccessRead, 100); // took the initial unit
    EXPECT_EQ(races_of(b.trace()), 1u);
}

TEST(SyncEdges, SecondWaitPairsWithFirstPostWhenInitialValueIsOne) {
    TraceBuilder b(3);
    const auto sem = b.object(SyncObjectKind::Semaphore, 1);
    b.sync(1, EventKind::SemWait, sem, 0);                              // initial unit
    b.access(0, kAccessWrite, 100).sync(0, EventKind::SemPost, sem, 1); // post #0
    b.sync(2, EventKind::SemWait, sem, 2).access(2, kAccessRead, 100);  // wait #1
    EXPECT_EQ(races_of(b.trace()), 0u);
}

TEST(SyncEdges, BarrierOrdersEveryArrivalBeforeEveryDeparture) {
    TraceBuilder b(3);
    const auto bar = b.object(SyncObjectKind::Barrier);
    for (std::uint32_t p = 0; p < 3; ++p) {
        b.access(p, kAccessWrite, 100 + 8 * p).sync(p, EventKind::BarrierArrive, bar, 0);
        b.sync(p, EventKind::BarrierDepart, bar, 0).access(p, kAccessRead, 100 + 8 * ((p + 1) % 3));
    }
    EXPECT_EQ(races_of(b.trace()), 0u);
    // Without the barrier, the phases race: each read conflicts with a neighbour's write.
    TraceBuilder nob(3);
    for (std::uint32_t p = 0; p < 3; ++p)
        nob.access(p, kAccessWrite, 100 + 8 * p)
            .sync(p, EventKind::Other, kNone, 0)
            .access(p, kAccessRead, 100 + 8 * ((p + 1) % 3));
    EXPECT_EQ(races_of(nob.trace()), 3u);
}

TEST(SyncEdges, BarrierEpisodesAreSeparate) {
    TraceBuilder b(2);
    const auto bar = b.object(SyncObjectKind::Barrier);
    b.sync(0, EventKind::BarrierArrive, bar, 0)
        .sync(0, EventKind::BarrierDepart, bar, 0)
        .access(0, kAccessWrite, 100);
    b.sync(1, EventKind::BarrierArrive, bar, 0)
        .sync(1, EventKind::BarrierDepart, bar, 0)
        .access(1, kAccessWrite, 100);
    EXPECT_EQ(races_of(b.trace()), 1u); // both write after the only episode
}

TEST(SyncEdges, AtomicAcquireIsOrderedAfterTheLatestRelease) {
    TraceBuilder b(3);
    const auto flag = b.object(SyncObjectKind::Atomic);
    b.access(0, kAccessWrite, 100).sync(0, EventKind::Release, flag, 0);
    b.sync(1, EventKind::Acquire, flag, 1).access(1, kAccessRead, 100);
    b.sync(2, EventKind::Acquire, flag, 2).access(2, kAccessRead, 100); // also after the release
    EXPECT_EQ(races_of(b.trace()), 0u);
}

TEST(SyncEdges, AtomicAccessesAreNotDataRacesWithEachOther) {
    TraceBuilder b(2);
    b.access(0, kAccessWrite | kAccessAtomic, 100);
    b.access(1, kAccessWrite | kAccessAtomic, 100);
    EXPECT_EQ(races_of(b.trace()), 0u);
}

TEST(SyncEdges, AtomicAndPlainAccessesRace) {
    // C11/C++11: an atomic and a non-atomic access to the same bytes, one writing, race.
    TraceBuilder store_load(2);
    store_load.access(0, kAccessWrite | kAccessAtomic, 100);
    store_load.access(1, kAccessRead, 100);
    EXPECT_EQ(races_of(store_load.trace()), 1u);
    TraceBuilder load_store(2);
    load_store.access(0, kAccessRead | kAccessAtomic, 100);
    load_store.access(1, kAccessWrite, 100);
    EXPECT_EQ(races_of(load_store.trace()), 1u);
    TraceBuilder loads(2); // two reads never conflict
    loads.access(0, kAccessRead | kAccessAtomic, 100);
    loads.access(1, kAccessRead, 100);
    EXPECT_EQ(races_of(loads.trace()), 0u);
}

TEST(SyncEdges, OverlappingByteRangesConflict) {
    TraceBuilder b(2);
    b.access(0, kAccessWrite, 100); // [100, 104)
    b.access(1, kAccessRead, 102);  // [102, 106)
    const auto result = analyze(b.trace());
    ASSERT_EQ(result.races.size(), 1u);
    EXPECT_EQ(race_accesses(b.trace(), result.races[0]).conflicts,
              (std::vector<Interval>{{102, 104}}));
    TraceBuilder apart(2);
    apart.access(0, kAccessWrite, 100);
    apart.access(1, kAccessRead, 104);
    EXPECT_EQ(races_of(apart.trace()), 0u);
}

TEST(SyncEdges, ForkAndJoinOrderParentAndChild) {
    TraceBuilder b(2);
    b.access(0, kAccessWrite, 100).sync(0, EventKind::Fork, 1, 0).access(0, kAccessWrite, 200);
    b.sync(0, EventKind::Join, 1, 0).access(0, kAccessRead, 300);
    b.access(1, kAccessRead, 100).access(1, kAccessWrite, 300);
    // Child reads 100 after the fork: ordered. Writes 300 before the join: ordered.
    EXPECT_EQ(races_of(b.trace()), 0u);
}

} // namespace
} // namespace firstrace

namespace firstrace {
namespace {

struct TempFileTrace {
    explicit TempFileTrace(const std::string& text) : trace(test::parse_std(text)) {}
    Trace trace;
};

TEST(TimestampSlots, SequentialChildrenShareOneSlot) {
    // main forks and joins children one after another: two slots, whatever the number of children.
    std::string text;
    for (int i = 1; i <= 20; ++i) {
        const std::string t = "T" + std::to_string(i);
        text += "T0|fork(" + t + ")|m.c:1\n" + t + "|w(x)|c.c:2\n" + t + "|r(y)|c.c:3\nT0|join(" +
                t + ")|m.c:4\n";
    }
    text += "T0|fork(T21)|m.c:5\nT0|fork(T22)|m.c:5\nT21|w(z)|c.c:6\nT22|w(z)|c.c:7\n";
    TempFileTrace file(text);
    const TemporalGraph g(file.trace);
    EXPECT_EQ(g.process_count(), 23u);
    // main and the sequential children; T21 and T22 take them over (main's end, its fork of
    // T22, precedes T22's start).
    EXPECT_EQ(g.slot_count(), 2u);
    const AnalysisResult result = analyze(file.trace);
    ASSERT_EQ(result.races.size(), 1u); // only T21 / T22 on z
    EXPECT_EQ(file.trace.processes[result.races[0].a.process].name, "T21");
}

} // namespace
} // namespace firstrace
