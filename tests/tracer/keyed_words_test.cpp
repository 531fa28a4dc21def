// Differential test of the runtime's open-addressing table of {key, word} slots
// (tracer/src/rt_keyed_words.hpp, the storage of a site's granules and dense pages) against a
// std::map: random claims, finds and erasures (backward-shift deletion must keep every key
// reachable), keys in blocks and scattered, sorting in the middle (find by bisection, then a
// hash again at the next reserve), and the count of a key's block neighbours.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "rt_keyed_words.hpp"
#include "test_arena.hpp"

namespace {

using frt::KeyedWord;
using frt::KeyedWords;
using u64 = std::uint64_t;

using frt_test::TestArena;

void expect_same(const KeyedWords& t, const std::map<u64, u64>& ref, const std::string& what) {
    ASSERT_EQ(t.size(), ref.size()) << what;
    for (const auto& [key, word] : ref) {
        const KeyedWord* s = t.find(key);
        ASSERT_NE(s, nullptr) << what << ": key " << key << " lost";
        ASSERT_EQ(s->word, word) << what;
    }
}

TEST(KeyedWords, MatchesAMapUnderClaimsErasuresAndSorts) {
    std::mt19937_64 rng(20261124);
    for (int round = 0; round < 200; ++round) {
        TestArena arena(1 << 20);
        KeyedWords t;
        t.reset(round % 2 == 0 ? KeyedWords::kMinSlots : 64);
        std::map<u64, u64> ref;
        // few blocks (long probe chains, many shifts) or keys anywhere
        const u64 spread = round % 3 == 0 ? 64 : round % 3 == 1 ? 4096 : u64{1} << 40;
        const u64 base = (u64{1} << 63) | (rng() % 2 == 0 ? 0 : rng() >> 30);
        const int ops = 200 + static_cast<int>(rng() % 3000);
        for (int op = 0; op < ops; ++op) {
            const u64 key = base + rng() % spread;
            const int kind = static_cast<int>(rng() % 100);
            const std::string what = "round " + std::to_string(round) + " op " + std::to_string(op);
            if (kind < 55) {
                ASSERT_TRUE(t.reserve(1, arena));
                bool fresh = false;
                KeyedWord& s = t.claim(key, fresh);
                ASSERT_EQ(fresh, ref.count(key) == 0) << what;
                const u64 bit = u64{1} << (rng() % 64);
                s.word |= bit;
                ref[key] |= bit;
                // block neighbours counted are held (a collision may hide some)
                const unsigned n = t.block_neighbours(key);
                unsigned held = 0;
                for (const auto& kv : ref)
                    held += (kv.first >> KeyedWords::kBlockBits) == (key >> KeyedWords::kBlockBits);
                ASSERT_LE(n, held) << what;
            } else if (kind < 85) {
                KeyedWord* s = t.find(key);
                ASSERT_EQ(s != nullptr, ref.count(key) == 1) << what;
                if (s != nullptr && rng() % 2 == 0) {
                    ASSERT_TRUE(t.reserve(0, arena)); // erase needs the hash
                    s = t.find(key);
                    t.erase(s);
                    ref.erase(key);
                    expect_same(t, ref, what + " after an erase");
                }
            } else if (kind < 88) { // sorted in the middle: ascending, then found by bisection
                const KeyedWord* s = t.sorted();
                std::size_t i = 0;
                for (const auto& [k, w] : ref) {
                    ASSERT_EQ(s[i].key, k) << what;
                    ASSERT_EQ(s[i].word, w) << what;
                    ++i;
                }
                expect_same(t, ref, what + " sorted");
            }
            if (HasFatalFailure()) return;
        }
        expect_same(t, ref, "end of round " + std::to_string(round));
        if (HasFatalFailure()) return;
    }
}

TEST(KeyedWords, AFullArenaChangesNothing) {
    TestArena arena(64);
    KeyedWords t;
    t.reset(64);
    std::map<u64, u64> ref;
    u64 key = 1;
    for (;; key += 9) {
        if (!t.reserve(1, arena)) break;
        bool fresh;
        t.claim(key, fresh).word = key * 3;
        ref[key] = key * 3;
    }
    EXPECT_EQ(ref.size(), 32u);
    expect_same(t, ref, "after the failed reserve");
}

} // namespace
