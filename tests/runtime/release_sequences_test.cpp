// The release-sequence model of atomics (tracer/src/rt_atomic_model.*) against the definition
// (C11 7.17.4 and 5.1.2.4p10, C++11-17 [intro.races]), by brute force over random operation
// sequences.
//
// Operations on one atomic run in its modification order (the runtime serializes them under
// the object's lock), so an acquire reads the latest store before it. Reference: the acquire
// synchronizes with every release A before it, of another process, such that every
// modification after A up to the store read is an RMW or a store of A's process. Model: the records
// atomic_effect writes, paired as the analyzer pairs them (each Acquire after the latest Release
// with a lower counter on the same object, same class/address/incarnation). With at most kHeads
// releasing processes the two must order the acquirer after the same releases, up to process order:
// per process, the latest release reached is the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "rt_atomic_model.hpp"

namespace {

using frt::u32;
using frt::u64;
using frt::u8;

enum class Kind { RelaxedRmw, ReleaseRmw, RelaxedStore, ReleaseStore, AcquireLoad, AcqRelRmw };

struct Op {
    Kind kind;
    u32 pid;
};

bool writes(Kind k) {
    return k != Kind::AcquireLoad;
}
bool is_rmw(Kind k) {
    return k == Kind::RelaxedRmw || k == Kind::ReleaseRmw || k == Kind::AcqRelRmw;
}
bool is_release(Kind k) {
    return k == Kind::ReleaseRmw || k == Kind::ReleaseStore || k == Kind::AcqRelRmw;
}
bool is_acquire(Kind k) {
    return k == Kind::AcquireLoad || k == Kind::AcqRelRmw;
}

// For each acquiring op: process -> the latest position of its releases the op synchronizes with.
using Reached = std::map<std::size_t, std::map<u32, std::size_t>>;

Reached reference(const std::vector<Op>& ops) {
    Reached out;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (!is_acquire(ops[i].kind)) continue;
        // the store read: the last modification before i (an RMW reads it too)
        std::size_t read = i;
        for (std::size_t k = i; k-- > 0;)
            if (writes(ops[k].kind)) {
                read = k;
                break;
            }
        if (read == i) continue;
        for (std::size_t a = 0; a <= read; ++a) {
            if (!is_release(ops[a].kind) || ops[a].pid == ops[i].pid) continue;
            bool continues = true;
            for (std::size_t k = a + 1; k <= read; ++k)
                if (writes(ops[k].kind) && !is_rmw(ops[k].kind) && ops[k].pid != ops[a].pid)
                    continues = false;
            if (continues) out[i][ops[a].pid] = a; // ascending a: the latest stays
        }
    }
    return out;
}

Reached model(const std::vector<Op>& ops) {
    frt::ObjEntry entry{};
    using Key = u64; // incarnation (one atomic)
    struct Rec {
        std::size_t op;
        u64 counter;
        u8 kind;
    };
    std::map<Key, std::vector<Rec>> by_object;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const Kind k = ops[i].kind;
        if (k == Kind::RelaxedRmw) continue; // no lock, no record
        frt::AtomicRecords records;
        frt::atomic_effect(&entry, ops[i].pid,
                           {is_acquire(k), is_release(k), writes(k) && !is_rmw(k)}, records);
        for (u32 r = 0; r < records.count; ++r)
            by_object[records.entries[r].incarnation].push_back(
                {i, records.entries[r].counter, records.entries[r].op});
    }
    Reached out;
    for (auto& [incarnation, recs] : by_object) {
        std::stable_sort(recs.begin(), recs.end(),
                         [](const Rec& a, const Rec& b) { return a.counter < b.counter; });
        // counters of one object are 0, 1, 2, ... (the reader's consistent cut relies on it)
        for (std::size_t n = 0; n < recs.size(); ++n)
            EXPECT_EQ(recs[n].counter, n) << "incarnation " << incarnation;
        const Rec* last_release = nullptr;
        for (const Rec& r : recs) {
            if (r.kind == firstrace::format::kOpRelease) {
                last_release = &r;
            } else if (last_release != nullptr && ops[last_release->op].pid != ops[r.op].pid) {
                std::size_t& at = out[r.op][ops[last_release->op].pid];
                at = std::max(at, last_release->op);
            }
        }
    }
    return out;
}

void check(unsigned seed, u32 processes, std::size_t length) {
    std::mt19937 rng(seed);
    std::vector<Op> ops;
    for (std::size_t i = 0; i < length; ++i)
        ops.push_back({static_cast<Kind>(rng() % 6), static_cast<u32>(rng() % processes)});
    const Reached expected = reference(ops);
    const Reached got = model(ops);
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (!is_acquire(ops[i].kind)) continue;
        const auto e = expected.find(i);
        const auto g = got.find(i);
        const std::map<u32, std::size_t> none;
        EXPECT_EQ(g == got.end() ? none : g->second, e == expected.end() ? none : e->second)
            << "seed " << seed << ", acquire at " << i;
    }
}

TEST(ReleaseSequences, MatchTheDefinition) {
    for (unsigned seed = 1; seed <= 400; ++seed)
        check(seed, 1 + seed % frt::kHeads, 40);
}

// A release by one process more than the model tracks per sequence merges: the acquirer is
// still ordered after every release it synchronizes with (never less ordering).
TEST(ReleaseSequences, MoreReleasingProcessesThanHeadsStillReachEveryRelease) {
    std::vector<Op> ops;
    for (u32 p = 0; p < frt::kHeads + 2; ++p)
        ops.push_back({Kind::ReleaseRmw, p});
    ops.push_back({Kind::AcquireLoad, 100});
    const auto got = model(ops);
    // the acquirer reaches the last process directly, the others through it
    ASSERT_TRUE(got.count(ops.size() - 1));
    EXPECT_EQ(got.at(ops.size() - 1).count(frt::kHeads + 1), 1u);
}

TEST(ReleaseSequences, RelaxedStoreEndsTheSequence) {
    const std::vector<Op> ops = {
        {Kind::ReleaseStore, 0}, {Kind::RelaxedStore, 1}, {Kind::AcquireLoad, 2}};
    EXPECT_TRUE(model(ops).empty());
    EXPECT_TRUE(reference(ops).empty());
}

// A store of the releasing process continues its sequence and ends the others'; a later release
// of an ended process heads a sequence again.
TEST(ReleaseSequences, OwnStoreContinuesTheSequenceAndEndsTheOthers) {
    const std::vector<Op> ops = {{Kind::ReleaseStore, 0}, {Kind::ReleaseRmw, 1},
                                 {Kind::RelaxedStore, 0}, {Kind::AcquireLoad, 2},
                                 {Kind::ReleaseRmw, 1},   {Kind::AcquireLoad, 3}};
    const auto got = model(ops);
    ASSERT_EQ(got, reference(ops));
    ASSERT_TRUE(got.count(3));
    EXPECT_EQ(got.at(3), (std::map<u32, std::size_t>{{0, 0}}));
    ASSERT_TRUE(got.count(5));
    EXPECT_EQ(got.at(5), (std::map<u32, std::size_t>{{0, 0}, {1, 4}}));
}

} // namespace
