// Timestamp slots (DESIGN-NOTES "Timestamp width"): a process takes over the slot of a process
// whose end is ordered before its start by any path of G, so the width is the number of
// processes live at once, not of all processes ever created.
#include <gtest/gtest.h>

#include "firstrace/analysis.hpp"
#include "temporal_graph.hpp"
#include "test_support.hpp"

namespace firstrace {
namespace {

TEST(TimestampSlots, ThreadsHandingOverALockShareASlot) {
    // main forks 1000 threads that are never joined; each takes the lock after the previous
    // one released it: two slots (main and the chain), not 1001.
    std::string text;
    for (int i = 1; i <= 1000; ++i)
        text += "T0|fork(T" + std::to_string(i) + ")|m.c:1\n";
    for (int i = 1; i <= 1000; ++i) {
        const std::string t = "T" + std::to_string(i);
        text += t + "|acq(L)|c.c:2\n" + t + "|w(x)|c.c:3\n" + t + "|rel(L)|c.c:4\n";
    }
    text += "T0|w(x)|m.c:5\n"; // races with every thread's write
    const Trace trace = test::parse_std(text);
    const TemporalGraph g(trace);
    EXPECT_EQ(g.slot_count(), 2u);
    EXPECT_EQ(analyze(trace).races.size(), 1000u);
}

TEST(TimestampSlots, BarrierWavesReuseTheSlotsOfTheWaveBefore) {
    // Four processes arrive at a barrier episode; four others start by departing from it.
    Trace t;
    t.objects.push_back({SyncObjectKind::Barrier, "b", 0, 0});
    for (std::uint32_t i = 0; i < 8; ++i) {
        Process p;
        p.name = "P" + std::to_string(i);
        Event compute;
        Event barrier;
        barrier.kind = i < 4 ? EventKind::BarrierArrive : EventKind::BarrierDepart;
        barrier.object = 0;
        barrier.counter = 0;
        if (i < 4) {
            p.events = {compute, barrier};
        } else {
            p.events = {barrier, compute};
        }
        t.processes.push_back(p);
    }
    const TemporalGraph g(t);
    EXPECT_EQ(g.slot_count(), 4u);
    // Slots are chains ordered in G: each second-wave process follows a first-wave one.
    for (const SlotId s : g.slots())
        EXPECT_EQ(g.slot_events(s).size(), 4u);
}

TEST(TimestampSlots, HundredThousandShortLivedThreadsAnalyseInLittleMemory) {
    // Issue 13 item 8: 10^5 threads in a text trace used to need 10^5-wide timestamps.
    std::string text;
    for (int i = 1; i <= 100000; ++i) {
        const std::string t = "T" + std::to_string(i);
        text += "T0|fork(" + t + ")|m.c:1\n" + t + "|acq(L)|c.c:2\n" + t + "|w(x)|c.c:3\n" + t +
                "|rel(L)|c.c:4\n";
    }
    const Trace trace = test::parse_std(text);
    const TemporalGraph g(trace);
    EXPECT_LE(g.slot_count(), 2u);
    const AnalysisResult r = analyze(trace);
    EXPECT_EQ(r.counts.processes, 100001u);
    EXPECT_TRUE(r.races.empty());
}

} // namespace
} // namespace firstrace
