// EventLog (the trace reader's per-process event array, grown with realloc) against
// std::vector<Event>: appends across many growths, appending an element of the log itself,
// truncation, shrinking, moves, and the exactly sized vector it hands over.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "trace_event_log.hpp"

namespace firstrace {
namespace {

bool same_event(const Event& a, const Event& b) {
    return a.kind == b.kind && a.object == b.object && a.counter == b.counter &&
           a.clock_start == b.clock_start && a.clock_finish == b.clock_finish &&
           a.first_site == b.first_site && a.site_count == b.site_count && a.context == b.context &&
           a.location == b.location;
}

void expect_same(const EventLog& log, const std::vector<Event>& ref) {
    ASSERT_EQ(log.size(), ref.size());
    ASSERT_EQ(log.empty(), ref.empty());
    std::size_t i = 0;
    for (const Event& e : log)
        ASSERT_TRUE(same_event(e, ref[i++])) << i;
}

TEST(EventLog, MatchesAVectorAcrossGrowthTruncationAndMoves) {
    std::mt19937_64 random(5);
    for (int round = 0; round < 20; ++round) {
        EventLog log;
        std::vector<Event> ref;
        // Some rounds past 65536 events, where the log grows by a quarter instead of doubling.
        const int steps = 1 + static_cast<int>(random() % (round % 4 == 0 ? 200000 : 20000));
        for (int step = 0; step < steps; ++step) {
            const unsigned op = random() % 100;
            if (op < 3 && !ref.empty()) { // truncate
                const std::size_t n = random() % (ref.size() + 1);
                log.truncate(n);
                ref.resize(n);
            } else if (op < 6 && !ref.empty()) { // append an element of the log itself
                const std::size_t k = random() % ref.size();
                log.push_back(log[k]);
                ref.push_back(ref[k]);
            } else if (op < 7) { // moved out and back
                EventLog moved = std::move(log);
                // a moved-from log is empty by EventLog's contract (the reader keeps one per
                // process in a vector, which moves them as it grows)
                EXPECT_TRUE(log.empty()); // NOLINT(bugprone-use-after-move)
                log = std::move(moved);
            } else if (op < 8) { // unused capacity given back
                log.shrink_to_fit();
            } else {
                Event e;
                e.kind = static_cast<EventKind>(random() % 12);
                e.object = static_cast<std::uint32_t>(random());
                e.counter = random();
                e.clock_start = random();
                e.clock_finish = e.clock_start + random() % 1000;
                e.first_site = static_cast<std::uint32_t>(random());
                e.site_count = static_cast<std::uint32_t>(random() % 9);
                e.context = static_cast<std::uint32_t>(random());
                e.location = static_cast<std::uint32_t>(random());
                log.push_back(e);
                ref.push_back(e);
            }
            if (!ref.empty()) {
                ASSERT_TRUE(same_event(log.back(), ref.back()));
            }
        }
        expect_same(log, ref);
        const std::vector<Event> taken = log.take();
        EXPECT_TRUE(log.empty());
        ASSERT_EQ(taken.size(), ref.size());
        EXPECT_EQ(taken.capacity(), taken.size()) << "exactly sized";
        for (std::size_t i = 0; i < ref.size(); ++i)
            ASSERT_TRUE(same_event(taken[i], ref[i])) << i;
        log.push_back(ref.empty() ? Event{} : ref.front()); // usable again after take
        EXPECT_EQ(log.size(), 1u);
    }
}

} // namespace
} // namespace firstrace
