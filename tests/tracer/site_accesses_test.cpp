// Differential test of the runtime's per-site access sets (tracer/src/rt_site_table.hpp):
// random access sequences -- contiguous, strided and repeated sweeps in both directions,
// interleaved sweeps, random bytes, overlapping sizes, scattered bursts (into the granules),
// dense and sparse pages mixed (bitmaps and granules), a small arena that fills up -- against a
// naive byte set. What the runtime writes for a site
// must be exactly the bytes accessed, as sorted, disjoint, non-adjacent ranges, however the
// accesses were grouped into runs, ranges and granules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "rt_site_table.hpp"
#include "test_arena.hpp"

namespace {

using frt::Range;
using frt::RunRanges;
using frt::SiteAccesses;
using u64 = std::uint64_t;

using frt_test::TestArena;

// What the runtime would write for the site: the ranges visit() reports, the run given to the
// tail expanded as the writer expands it.
std::vector<Range> written(const SiteAccesses& s) {
    std::vector<Range> out;
    const u64 count = s.visit(
        [&](u64 lo, u64 hi) {
            out.push_back({lo, hi});
        },
        [&](const RunRanges& run, u64 prev_hi) {
            EXPECT_TRUE(out.empty() || out.back().hi == prev_hi);
            for (u64 k = 0; k < run.count; ++k)
                out.push_back({run.lo + k * run.step, run.lo + k * run.step + run.size});
        });
    EXPECT_EQ(count, out.size());
    EXPECT_EQ(s.range_count(), out.size());
    return out;
}

void expect_same(const SiteAccesses& s, const std::set<u64>& bytes, const std::string& what) {
    const std::vector<Range> ranges = written(s);
    std::set<u64> got;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        ASSERT_LT(ranges[i].lo, ranges[i].hi) << what;
        if (i > 0) {
            ASSERT_LT(ranges[i - 1].hi, ranges[i].lo) << what << ": not sorted/merged";
        }
        for (u64 b = ranges[i].lo; b < ranges[i].hi; ++b)
            got.insert(b);
    }
    ASSERT_EQ(got, bytes) << what;
}

// One access as the runtime adds it: when the arena is full, the event is checked (`what()`
// names the point), closed, and a new one started with the access that did not fit. Returns
// whether the event was closed.
template <class What>
bool add_closing_when_full(SiteAccesses& s, TestArena& arena, std::set<u64>& bytes, u64 addr,
                           u64 size, What&& what) {
    bool closed = false;
    if (!s.add(addr, size, arena)) {
        expect_same(s, bytes, what());
        closed = true;
        arena.used = 0;
        bytes.clear();
        s.reset(arena.take<Range>(4), 4);
        EXPECT_TRUE(s.add(addr, size, arena));
    }
    for (u64 b = addr; b < addr + size; ++b)
        bytes.insert(b);
    return closed;
}

// 20 accesses of `size` bytes `stride` apart from addr, through the access path first as
// on_access does; returns how many times the event was closed.
int strided_run(SiteAccesses& s, TestArena& arena, std::set<u64>& bytes, u64 addr, u64 stride,
                u64 size, const std::string& what) {
    int closed = 0;
    for (u64 k = 0; k < 20; ++k) {
        const u64 a = addr + k * stride;
        if (s.extend_run(a, size)) {
            for (u64 b = a; b < a + size; ++b)
                bytes.insert(b);
        } else if (add_closing_when_full(s, arena, bytes, a, size,
                                         [&] { return what + ", in a run"; })) {
            ++closed;
        }
    }
    return closed;
}

// One event: accesses until the arena is full (the runtime then closes the event and starts a
// new one with the access that did not fit), checked at every close and at the end.
void run_case(std::mt19937_64& rng, int round) {
    std::uniform_int_distribution<int> pick(0, 99);
    // from "fills at once" to room for a granule table or two
    TestArena arena(rng() % 2 == 0 ? 8 + rng() % 64 : 64 + rng() % 1024);
    SiteAccesses s;
    s.reset(arena.take<Range>(4), 4);
    std::set<u64> bytes;
    const u64 base = (rng() % 2 == 0) ? 0x1000 : 0x7ffd'0000'0000ull;
    auto access = [&](u64 addr, u64 size) {
        add_closing_when_full(s, arena, bytes, addr, size,
                              [&] { return "event closed, round " + std::to_string(round); });
    };
    // the access path first, as on_access does: an access the open run covers adds nothing,
    // so its bytes must be held already
    auto fast_or_add = [&](u64 addr, u64 size) {
        if (s.extend_run(addr, size)) {
            for (u64 b = addr; b < addr + size; ++b)
                bytes.insert(b);
            return;
        }
        if (s.run_covers(addr, size)) {
            for (u64 b = addr; b < addr + size; ++b)
                ASSERT_EQ(bytes.count(b), 1u) << "covered by the run but not held, round " << round;
            return;
        }
        access(addr, size);
    };
    const int steps = 1 + static_cast<int>(rng() % 12);
    for (int step = 0; step < steps; ++step) {
        const int kind = pick(rng);
        const u64 size = u64{1} << (rng() % 5); // 1..16
        const u64 start = base + rng() % 2048;
        const u64 n = 1 + rng() % 40;
        if (kind < 25) { // contiguous sweep, either direction
            const bool down = rng() % 2;
            for (u64 i = 0; i < n; ++i)
                fast_or_add(down ? start - i * size : start + i * size, size);
        } else if (kind < 50) { // strided sweep (gaps or overlaps), either direction
            const u64 stride = 1 + rng() % 96;
            const bool down = rng() % 2;
            for (u64 i = 0; i < n; ++i)
                fast_or_add(down ? start - i * stride : start + i * stride, size);
        } else if (kind < 55) { // repeats of one address
            for (u64 i = 0; i < n; ++i)
                fast_or_add(start, size);
        } else if (kind < 60) { // a sliding window (a filter's taps read by one instruction)
            const u64 taps = 1 + rng() % 8;
            for (u64 i = 0; i < n; ++i)
                for (u64 k = 0; k < taps; ++k)
                    fast_or_add(start + (i + k) * size, size);
        } else if (kind < 75) { // two sweeps interleaved at one site (a pointer select)
            const u64 other = base + rng() % 2048;
            for (u64 i = 0; i < n; ++i)
                fast_or_add((i % 2 ? other : start) + (i / 2) * size, size);
        } else if (kind < 85) { // random accesses of random sizes
            for (u64 i = 0; i < n; ++i)
                fast_or_add(base + rng() % 2304, 1 + rng() % 24);
        } else if (kind < 90) { // a scattered burst: beyond kShiftLimit ranges, into granules
            const u64 burst = 50 + rng() % 250;
            for (u64 i = 0; i < burst; ++i)
                fast_or_add(base + rng() % 8192, u64{1} << (rng() % 4));
        } else { // a range call (memcpy-like) of a random length
            access(start, 1 + rng() % 600);
        }
        if (::testing::Test::HasFatalFailure()) return;
    }
    expect_same(s, bytes, "end, round " + std::to_string(round));
}

TEST(SiteAccesses, MatchesAByteSetOnRandomAccessSequences) {
    std::mt19937_64 rng(20261123);
    for (int round = 0; round < 4000; ++round) {
        run_case(rng, round);
        if (HasFatalFailure()) return;
    }
}

std::size_t granules_of(const std::set<u64>& bytes, unsigned shift = frt::GranuleSet::kShift) {
    std::set<u64> granules;
    for (const u64 b : bytes)
        granules.insert(b >> shift);
    return granules.size();
}

std::size_t pages_of(const std::set<u64>& bytes) {
    return granules_of(bytes, frt::GranuleSet::kPageShift);
}

// A compressor's hash table or a block sort: accesses scattered over a large area, revisiting
// some, far more ranges than kShiftLimit, some crossing granule borders, a few larger than
// kGranuleSpanLimit granules, a strided run now and then. They go to the granules (and the big
// ones into the ranges); what is written stays exactly the bytes, checked at several points
// with accesses continuing after each check (the granules, sorted by visit(), become a hash
// again), in arenas of every size from "fills at once" to "never fills".
TEST(SiteAccesses, ScatteredAccessesGoThroughTheGranulesExactly) {
    std::mt19937_64 rng(20261124);
    for (const std::size_t arena_units :
         {std::size_t{400}, std::size_t{2000}, std::size_t{1} << 18}) {
        TestArena arena(arena_units);
        SiteAccesses s;
        s.reset(arena.take<Range>(4), 4);
        std::set<u64> bytes;
        int closed = 0;
        std::uint32_t most_granules = 0;
        for (int i = 0; i < 30000; ++i) {
            const int kind = static_cast<int>(rng() % 100);
            u64 size = u64{1} << (rng() % 4);
            // a 256 KiB table, 8-byte slots, some hot slots revisited
            u64 addr = 0x100000 + (rng() % 4 == 0 ? (rng() % 16) * 8 : rng() % (256 << 10));
            if (kind < 5) {
                size = 1 + rng() % 200; // across granule borders
            } else if (kind < 6) {      // a big copy, now and then into the table
                if (rng() % 8 != 0) addr = 0x10000000 + rng() % (64 << 20);
                size = 64 * SiteAccesses::kGranuleSpanLimit + 1 + rng() % 5000;
            } else if (kind < 8) { // a short strided run, then back to scattering
                closed += strided_run(s, arena, bytes, addr, 1 + rng() % 100, size, "in a run");
                continue;
            }
            if (add_closing_when_full(s, arena, bytes, addr, size,
                                      [&] { return "arena full after " + std::to_string(i); }))
                ++closed;
            most_granules = std::max(most_granules, s.stored_granules());
            if (i % 7919 == 0) {
                expect_same(s, bytes, "during, access " + std::to_string(i));
                // only granules that hold accessed bytes
                ASSERT_LE(s.stored_granules(), granules_of(bytes));
            }
            if (HasFatalFailure()) return;
        }
        expect_same(s, bytes, "end");
        EXPECT_GT(most_granules, 0u) << "the granules were never used, arena " << arena_units;
        // the small arenas fill (the event is split), the large one does not
        EXPECT_EQ(closed == 0, arena_units == (std::size_t{1} << 18)) << arena_units;
    }
}

// The granules' bytes come out as maximal ranges: a stretch across a granule border is one
// range, full granules join, and a run above them goes to the tail callback.
TEST(SiteAccesses, GranulesJoinAcrossBordersAndWithTheRun) {
    TestArena arena(4096);
    SiteAccesses s;
    s.reset(arena.take<Range>(4), 4);
    std::set<u64> bytes;
    auto access = [&](u64 addr, u64 size) {
        ASSERT_TRUE(s.add(addr, size, arena));
        for (u64 b = addr; b < addr + size; ++b)
            bytes.insert(b);
    };
    // singles at descending addresses, never a run: each insertion would move every range
    for (u64 k = 0; k < 2 * SiteAccesses::kShiftLimit; ++k)
        access(0x100000 - k * k * 8 - k, 1);
    ASSERT_GT(s.stored_granules(), 0u);
    access(0x1000 + 60, 8);     // bytes 60..63 and 0..3 of the next granule
    access(0x2000, 64);         // one full granule
    access(0x2040, 64);         // and the next
    access(0x2000 - 1, 1);      // touching from below
    access(0x1000 + 64 + 4, 2); // touching 0x1000 + 60 .. + 68 from above
    access(0x40000 + 16, 16);   // a strided run over scattered bytes: general merge
    access(0x40000 + 64 + 16, 16);
    access(0x40000 + 128 + 16, 16);
    expect_same(s, bytes, "granules and run");
    const std::vector<Range> ranges = written(s);
    EXPECT_TRUE(std::find_if(ranges.begin(), ranges.end(), [](const Range& r) {
                    return r.lo == 0x1000 + 60 && r.hi == 0x1000 + 70;
                }) != ranges.end());
    EXPECT_TRUE(std::find_if(ranges.begin(), ranges.end(), [](const Range& r) {
                    return r.lo == 0x2000 - 1 && r.hi == 0x2080;
                }) != ranges.end());
    // a run wholly above everything is the tail
    access(0x200000, 4);
    access(0x200010, 4);
    access(0x200020, 4);
    bool tail_seen = false;
    s.visit([](u64, u64) {}, [&](const RunRanges& run, u64) { tail_seen = run.count == 3; });
    EXPECT_TRUE(tail_seen);
    expect_same(s, bytes, "granules and the run above");
}

// A block sort's suffix array beside a hash table over a large area: some pages are touched
// densely (they become bitmaps), others once or twice (they stay granules), and accesses cross
// page borders, copy big blocks and run in short strides in between. Phases change the mix;
// the bytes written are checked at random points (accesses continue after each check: the
// tables, sorted there, become hashes again) and whenever the arena fills, for arenas from
// "fills at once" to "never fills".
TEST(SiteAccesses, DenseAndSparsePagesMixedExactly) {
    std::mt19937_64 rng(20261125);
    for (const std::size_t arena_units :
         {std::size_t{300}, std::size_t{3000}, std::size_t{40000}, std::size_t{1} << 20}) {
        for (int seed = 0; seed < 3; ++seed) {
            TestArena arena(arena_units);
            SiteAccesses s;
            s.reset(arena.take<Range>(4), 4);
            std::set<u64> bytes;
            int closed = 0;
            std::uint32_t most_pages = 0, most_granules = 0;
            const u64 dense_base = 0x7f00'0000'0000ull + (rng() % 64) * 4096 + (seed == 2 ? 4 : 0);
            const u64 dense_len = (8 + rng() % 24) * 4096;
            const u64 sparse_base = 0x5500'0000'0000ull;
            int dense_percent = 0;
            const std::string where =
                "arena " + std::to_string(arena_units) + " seed " + std::to_string(seed);
            for (int i = 0; i < 40000; ++i) {
                if (i % 2500 == 0) dense_percent = static_cast<int>(rng() % 101);
                const int kind = static_cast<int>(rng() % 100);
                u64 size = u64{1} << (rng() % 4);
                u64 addr;
                if (static_cast<int>(rng() % 100) < dense_percent) {
                    addr = dense_base + (rng() % (dense_len / 4)) * 4;
                } else {
                    addr = sparse_base + rng() % (u64{1} << 30);
                }
                if (kind < 4) { // across granule and page borders
                    size = 1 + rng() % 200;
                    if (rng() % 2 == 0) addr = (addr | 4095) - rng() % 100;
                } else if (kind < 5) { // a big copy into the dense area
                    addr = dense_base + rng() % dense_len;
                    size = 64 * SiteAccesses::kGranuleSpanLimit + 1 + rng() % 5000;
                } else if (kind < 7) { // a short strided run, then back to scattering
                    closed += strided_run(s, arena, bytes, addr, 1 + rng() % 100, size, where);
                    continue;
                }
                if (add_closing_when_full(s, arena, bytes, addr, size, [&] {
                        return where + ", arena full after " + std::to_string(i);
                    }))
                    ++closed;
                most_pages = std::max(most_pages, s.stored_dense_pages());
                most_granules = std::max(most_granules, s.stored_granules());
                if (rng() % 5000 == 0) {
                    expect_same(s, bytes, where + ", during, access " + std::to_string(i));
                    // only pages and granules that hold accessed bytes
                    ASSERT_LE(s.stored_dense_pages(), pages_of(bytes)) << where;
                    ASSERT_LE(s.stored_granules(), granules_of(bytes)) << where;
                }
                if (HasFatalFailure()) return;
            }
            expect_same(s, bytes, where + ", end");
            if (HasFatalFailure()) return;
            if (arena_units >= 3000) { // the smallest fills before a granule table fits
                EXPECT_GT(most_granules, 0u) << where;
                EXPECT_GT(most_pages, 0u) << where;
            }
            EXPECT_EQ(closed == 0, arena_units == (std::size_t{1} << 20)) << where;
        }
    }
}

// Two pages swept in random order, 4 bytes at a time: they end as dense pages (with fewer
// granules left of them than their blocks, which are held in granules until their page is
// dense) and are written as one range, joined with the bytes touching them on both sides.
TEST(SiteAccesses, APageSweptInNoOrderBecomesOneBitmap) {
    std::mt19937_64 rng(7);
    TestArena arena(1 << 14);
    SiteAccesses s;
    s.reset(arena.take<Range>(4), 4);
    const u64 base = 0x10000;
    std::vector<u64> slots(2 * 4096 / 4);
    for (std::size_t i = 0; i < slots.size(); ++i)
        slots[i] = base + 4 * i;
    std::shuffle(slots.begin(), slots.end(), rng);
    std::set<u64> bytes;
    for (const u64 a : slots) {
        ASSERT_TRUE(s.add(a, 4, arena));
        for (u64 b = a; b < a + 4; ++b)
            bytes.insert(b);
    }
    EXPECT_EQ(s.stored_dense_pages(), 2u);
    EXPECT_LT(s.stored_granules(), 2 * 8u * (frt::GranuleSet::kDenseBlock - 1));
    ASSERT_TRUE(s.add(base - 3, 3, arena));
    ASSERT_TRUE(s.add(base + 2 * 4096, 5, arena));
    for (u64 b = base - 3; b < base + 2 * 4096 + 5; ++b)
        bytes.insert(b);
    expect_same(s, bytes, "two dense pages");
    const std::vector<Range> ranges = written(s);
    ASSERT_EQ(ranges.size(), 1u);
    EXPECT_EQ(ranges[0].lo, base - 3);
    EXPECT_EQ(ranges[0].hi, base + 2 * 4096 + 5);
}

TEST(SiteAccesses, AStridedSweepIsOneRunWrittenAsItsRanges) {
    TestArena arena(16);
    SiteAccesses s;
    s.reset(arena.take<Range>(4), 4);
    // clang -O2's interleaved vector loop: one instruction reads 16 bytes every 64
    ASSERT_TRUE(s.add(0x1000, 16, arena));
    ASSERT_TRUE(s.add(0x1040, 16, arena));
    for (u64 a = 0x1080; a < 0x1000 + 64 * 512; a += 64)
        ASSERT_TRUE(s.extend_run(a, 16));
    EXPECT_EQ(s.stored_ranges(), 0u); // nothing materialized
    const RunRanges run = s.run();
    EXPECT_EQ(run.lo, 0x1000u);
    EXPECT_EQ(run.step, 64u);
    EXPECT_EQ(run.size, 16u);
    EXPECT_EQ(run.count, 512u);
    const std::vector<Range> ranges = written(s);
    ASSERT_EQ(ranges.size(), 512u);
    EXPECT_EQ(ranges.back().lo, 0x1000u + 511 * 64);
    EXPECT_EQ(ranges.back().hi, 0x1000u + 511 * 64 + 16);
}

TEST(SiteAccesses, AContiguousDescendingSweepIsOneRange) {
    TestArena arena(16);
    SiteAccesses s;
    s.reset(arena.take<Range>(4), 4);
    ASSERT_TRUE(s.add(0x2000, 8, arena));
    ASSERT_TRUE(s.add(0x1ff8, 8, arena));
    for (u64 a = 0x1ff0; a >= 0x1000; a -= 8)
        ASSERT_TRUE(s.extend_run(a, 8));
    const std::vector<Range> ranges = written(s);
    ASSERT_EQ(ranges.size(), 1u);
    EXPECT_EQ(ranges[0].lo, 0x1000u);
    EXPECT_EQ(ranges[0].hi, 0x2008u);
}

TEST(SiteAccesses, AFullArenaLeavesTheSiteAsItWas) {
    TestArena arena(5); // the initial 4 ranges and nothing more
    SiteAccesses s;
    s.reset(arena.take<Range>(4), 4);
    std::set<u64> bytes;
    u64 a = 0x1000;
    bool full = false;
    // isolated accesses at growing gaps: no run lasts beyond two of them
    for (int i = 0; i < 100 && !full; ++i, a += 100 + 7 * static_cast<u64>(i)) {
        if (!s.add(a, 4, arena)) {
            full = true;
            break;
        }
        for (u64 b = a; b < a + 4; ++b)
            bytes.insert(b);
    }
    ASSERT_TRUE(full);
    expect_same(s, bytes, "after the failed add");
}

} // namespace
