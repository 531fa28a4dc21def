// The facts reports add to a race (issue 12): locks held at each event, the chain ordering a
// race of a later partition after another, and the names of bytes by DWARF type layout. Each
// against a brute-force reference on random STD traces or hand-built cases.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "firstrace/analysis.hpp"
#include "report_held_locks.hpp"
#include "report_ordering_chains.hpp"
#include "test_support.hpp"

namespace firstrace {
namespace {

bench::GeneratorParams params_for(std::uint64_t seed) {
    std::mt19937_64 rng(seed * 6271 + 5);
    auto pick = [&](std::uint32_t lo, std::uint32_t hi) {
        return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
    };
    bench::GeneratorParams p;
    p.seed = seed;
    p.threads = pick(1, 5);
    p.locks = pick(1, 3);
    p.variables = pick(1, 6);
    p.operations = pick(20, 200);
    p.write_ratio = 0.2 + 0.1 * pick(0, 5);
    p.sync_ratio = 0.05 * pick(1, 6);
    p.protected_ratio = 0.2 * pick(0, 5);
    p.locations = pick(1, 6);
    p.nested_forks = pick(0, 1) == 1;
    return p;
}

// Reference: per process, a count per lock object; an acquire raises it (the first one is where
// the lock was acquired), a release lowers it after its own event.
std::vector<HeldLock> reference_locks(const Trace& t, std::uint32_t p, std::uint32_t event) {
    std::map<std::uint32_t, std::pair<int, std::uint32_t>> count; // object -> (depth, acquire)
    for (std::uint32_t i = 0; i <= event; ++i) {
        const Event& e = t.processes[p].events[i];
        const bool lock =
            e.object < t.objects.size() && t.objects[e.object].kind == SyncObjectKind::Lock;
        if (lock && e.kind == EventKind::Acquire) {
            auto& c = count[e.object];
            if (c.first++ == 0) c.second = i;
        } else if (lock && e.kind == EventKind::Release && i < event && count[e.object].first > 0) {
            --count[e.object].first;
        }
    }
    std::vector<std::pair<std::uint32_t, HeldLock>> held; // by acquire index
    for (const auto& [object, c] : count)
        if (c.first > 0) held.push_back({c.second, {object, c.second}});
    std::sort(held.begin(), held.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<HeldLock> out;
    out.reserve(held.size());
    for (const auto& h : held)
        out.push_back(h.second);
    return out;
}

class ReportFacts : public testing::TestWithParam<std::uint64_t> {};

TEST_P(ReportFacts, HeldLocksMatchReference) {
    const Trace t = test::parse_std(test::random_std(params_for(GetParam())));
    const HeldLocks locks(t);
    for (std::uint32_t p = 0; p < t.processes.size(); ++p)
        for (std::uint32_t i = 0; i < t.processes[p].events.size(); ++i)
            ASSERT_EQ(locks.at(p, i), reference_locks(t, p, i))
                << "process " << p << " event " << i;
}

// Every race outside the first partitions gets a race of an earlier partition (the partition
// DAG reaches its partition) and a chain that is a path of process order, synchronization and
// direct event-control edges from an event of that race to an event of this one.
TEST_P(ReportFacts, OrderingChainsArePathsFromAnEarlierPartition) {
    const Trace t = test::parse_std(test::random_std(params_for(GetParam())));
    const AnalysisResult result = analyze(t);
    const OrderingChains chains(t, result);
    std::set<std::pair<EventRef, EventRef>> sync, control;
    for (const GraphEdge& e : result.edges) {
        if (e.kind == EdgeKind::Ordering) sync.insert({e.from, e.to});
        if (e.kind == EdgeKind::EventControl && !e.transitive) control.insert({e.from, e.to});
    }
    // Partitions reachable through the DAG (brute force).
    auto before = [&](std::uint32_t from, std::uint32_t to) {
        std::vector<bool> seen(result.partitions.size(), false);
        std::vector<std::uint32_t> stack{from};
        while (!stack.empty()) {
            const std::uint32_t p = stack.back();
            stack.pop_back();
            for (std::uint32_t q : result.partitions[p].after) {
                if (q == to) return true;
                if (!seen[q]) {
                    seen[q] = true;
                    stack.push_back(q);
                }
            }
        }
        return false;
    };
    for (const Race& y : result.races) {
        const auto found = chains.of(y.id);
        if (result.partitions[y.partition].first) {
            EXPECT_FALSE(found.has_value()) << "race " << y.id;
            continue;
        }
        ASSERT_TRUE(found.has_value()) << "race " << y.id << " of a later partition";
        const Race& x = result.races[found->race];
        EXPECT_NE(x.partition, y.partition);
        EXPECT_TRUE(before(x.partition, y.partition))
            << "partition " << x.partition << " is not before " << y.partition;
        // Two paths, from x's event a and from its event b, to one event of y (Def 8.1).
        std::vector<std::vector<OrderingStep>> paths;
        for (const OrderingStep& step : found->chain) {
            if (step.via == OrderingVia::Start) paths.emplace_back();
            ASSERT_FALSE(paths.empty()) << "the chain does not begin with a start";
            paths.back().push_back(step);
        }
        ASSERT_EQ(paths.size(), 2u);
        EXPECT_EQ(paths[0].front().event, x.a);
        EXPECT_EQ(paths[1].front().event, x.b);
        EXPECT_EQ(paths[0].back().event, paths[1].back().event);
        EXPECT_TRUE(paths[0].back().event == y.a || paths[0].back().event == y.b);
        std::size_t empty_paths = 0;
        for (const auto& chain : paths) {
            // An empty path (the Start step alone): x's event is y's own, which reaches
            // itself in Ê*; both of x's events cannot be y's.
            if (chain.size() == 1) ++empty_paths;
            EXPECT_LE(empty_paths, 1u) << "both paths empty";
            for (std::size_t i = 1; i < chain.size(); ++i) {
                const EventRef& from = chain[i - 1].event;
                const EventRef& to = chain[i].event;
                switch (chain[i].via) {
                case OrderingVia::ProgramOrder:
                    EXPECT_TRUE(from.process == to.process && from.index < to.index);
                    break;
                case OrderingVia::Synchronization:
                    EXPECT_TRUE(sync.count({from, to})) << "no synchronization edge";
                    break;
                case OrderingVia::EventControl:
                    EXPECT_TRUE(control.count({from, to})) << "no event-control edge";
                    break;
                case OrderingVia::Start:
                    ADD_FAILURE() << "start inside a path";
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(RandomTraces, ReportFacts, testing::Range<std::uint64_t>(1, 201));

TEST(ReportFactsCoverage, RandomTracesHaveHeldLocksAndChains) {
    std::size_t held = 0, chains = 0;
    for (std::uint64_t seed = 1; seed < 201; ++seed) {
        const Trace t = test::parse_std(test::random_std(params_for(seed)));
        const AnalysisResult result = analyze(t);
        const HeldLocks locks(t);
        const OrderingChains c(t, result);
        for (const Race& r : result.races) {
            held += locks.at(r.a.process, r.a.index).size();
            chains += c.of(r.id).has_value();
        }
    }
    EXPECT_GT(held, 50u);
    EXPECT_GT(chains, 50u);
}

// A read-write lock is two objects at one address (tracer/src/rt_interceptors.cpp): read
// unlocks are an acquire and a release of the readers object; a recursive mutex nests.
TEST(HeldLocks, ReadWriteLockObjectsAndRecursiveMutexes) {
    Trace t;
    t.objects = {{SyncObjectKind::RwLock, "rwlock@0x10", 0x10, 0},
                 {SyncObjectKind::RwLock, "rwlock-readers@0x10", 0x10, 0},
                 {SyncObjectKind::Lock, "mutex@0x20", 0x20, 0},
                 {SyncObjectKind::Atomic, "atomic@0x30", 0x30, 0}};
    auto ev = [](EventKind k, std::uint32_t object) {
        Event e;
        e.kind = k;
        e.object = object;
        return e;
    };
    const Event comp;
    Process p;
    p.events = {ev(EventKind::Acquire, 0),
                comp, // rdlock
                ev(EventKind::Acquire, 1),
                ev(EventKind::Release, 1),
                comp, // read unlock
                ev(EventKind::Acquire, 0),
                ev(EventKind::Acquire, 1),
                comp, // wrlock
                ev(EventKind::Release, 0),
                comp, // write unlock
                ev(EventKind::Acquire, 2),
                ev(EventKind::Acquire, 2),
                comp, // recursive
                ev(EventKind::Release, 2),
                comp,
                ev(EventKind::Release, 2),
                comp,
                ev(EventKind::Acquire, 3),
                comp}; // an atomic acquire load: no lock
    t.processes = {p};
    const HeldLocks locks(t);
    using V = std::vector<HeldLock>;
    EXPECT_EQ(locks.at(0, 1), (V{{0, 0}}));
    EXPECT_EQ(locks.at(0, 3), (V{{0, 0}})); // the release event still holds it
    EXPECT_EQ(locks.at(0, 4), V{});
    EXPECT_EQ(locks.at(0, 7), (V{{0, 5}}));
    EXPECT_EQ(locks.at(0, 9), V{});
    EXPECT_EQ(locks.at(0, 12), (V{{2, 10}}));
    EXPECT_EQ(locks.at(0, 14), (V{{2, 10}}));
    EXPECT_EQ(locks.at(0, 16), V{});
    EXPECT_EQ(locks.at(0, 18), V{});
}

// struct ring { int slots[4]; unsigned head, tail; struct { short a, b; } inner[2]; } ring;
TEST(DescribeWithin, NamesMembersAndElements) {
    std::vector<DataType> types(5);
    types[0] = {DataType::Kind::Scalar, 4, {}, kNone, 0}; // int / unsigned
    types[1] = {DataType::Kind::Array, 16, {}, 0, 4};     // int[4]
    types[2] = {DataType::Kind::Scalar, 2, {}, kNone, 0}; // short
    types[3] = {DataType::Kind::Record, 4, {{"a", 0, 2}, {"b", 2, 2}}, kNone, 0};
    types[4] = {DataType::Kind::Array, 8, {}, 3, 2}; // inner[2]
    DataType ring{DataType::Kind::Record,
                  32,
                  {{"slots", 0, 1}, {"head", 16, 0}, {"tail", 20, 0}, {"inner", 24, 4}},
                  kNone,
                  0};
    types.push_back(ring);
    const std::uint32_t r = 5;
    EXPECT_EQ(describe_within(types, "ring", r, 20, 24, 32), "ring.tail");
    EXPECT_EQ(describe_within(types, "ring", r, 12, 16, 32), "ring.slots[3]");
    EXPECT_EQ(describe_within(types, "ring", r, 4, 12, 32), "ring.slots[1..2]");
    EXPECT_EQ(describe_within(types, "ring", r, 0, 16, 32), "ring.slots");
    EXPECT_EQ(describe_within(types, "ring", r, 30, 32, 32), "ring.inner[1].b");
    EXPECT_EQ(describe_within(types, "ring", r, 21, 22, 32), "ring.tail+1 (1 byte)");
    EXPECT_EQ(describe_within(types, "ring", r, 0, 32, 32), "ring");
    EXPECT_EQ(describe_within(types, "ring", r, 14, 18, 32), "ring+14 (4 bytes)"); // straddles
    EXPECT_EQ(describe_within(types, "counter", kNone, 0, 8, 8), "counter");
    EXPECT_EQ(describe_within(types, "queue", kNone, 8, 12, 64), "queue+8 (4 bytes)");
}

} // namespace
} // namespace firstrace
