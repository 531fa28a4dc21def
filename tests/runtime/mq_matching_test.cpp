// The FIFO matching of message queue receives to sends (tracer/src/rt_mq_matching.hpp) against a
// simulated kernel queue: senders and receivers run their calls as steps (the runtime's part
// before the real call, the kernel's enqueue or dequeue, the runtime's part after it) in random
// interleavings; whenever the matcher claims a receive got the message of ticket k, the message
// the simulated kernel handed out must be the one the send with ticket k enqueued.
#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

#include "rt_mq_matching.hpp"

namespace {

using frt::u64;
namespace mq = frt::mq;

constexpr int kPriorities = 2;
constexpr u64 kCapacity = 4;
constexpr u64 kWindow = 3;

struct Message {
    u64 ticket;
};

struct Kernel { // one queue: FIFO per priority, the highest priority first
    std::deque<Message> fifo[kPriorities];
    u64 size() const { return fifo[0].size() + fifo[1].size(); }
};

struct Actor {
    bool sender;
    int operations_left;
    int step = 0; // 0: before, 1: the kernel, 2 (receivers): matched, then finish
    int priority = 0;
    u64 ticket = 0;
    bool ok = false;
    Message got{};
    int got_priority = 0;
};

struct Outcome {
    u64 exact = 0, receives = 0;
};

Outcome simulate(unsigned seed, int senders, int receivers, int operations) {
    std::mt19937 rng(seed);
    mq::QueueCounters queue;
    mq::ChannelCounters channels[kPriorities];
    Kernel kernel;
    std::vector<Actor> actors;
    actors.reserve(static_cast<std::size_t>(senders) + static_cast<std::size_t>(receivers));
    for (int i = 0; i < senders; ++i)
        actors.push_back({true, operations});
    for (int i = 0; i < receivers; ++i)
        actors.push_back({false, operations * senders / receivers + 2});
    Outcome outcome;
    // A run with one sender and one receiver that strictly alternate is sequential: every
    // receive must then be matched exactly (checked by the caller through the counts).
    for (;;) {
        std::vector<int> ready;
        for (int i = 0; i < static_cast<int>(actors.size()); ++i)
            if (actors[i].operations_left > 0) ready.push_back(i);
        if (ready.empty()) break;
        Actor& a = actors[ready[rng() % ready.size()]];
        if (a.sender) {
            if (a.step == 0) {
                a.priority = static_cast<int>(rng() % kPriorities);
                a.ticket = mq::send_started(channels[a.priority]);
            } else if (a.step == 1) {
                a.ok = kernel.size() < kCapacity; // a non-blocking send to a full queue fails
                if (a.ok) kernel.fifo[a.priority].push_back({a.ticket});
            } else {
                mq::send_finished(channels[a.priority], a.ticket, a.ok);
                --a.operations_left;
            }
            a.step = (a.step + 1) % 3;
            continue;
        }
        if (a.step == 0) {
            mq::receive_started(queue);
        } else if (a.step == 1) {
            a.ok = false;
            for (int p = kPriorities - 1; p >= 0 && !a.ok; --p) {
                if (kernel.fifo[p].empty()) continue;
                a.got = kernel.fifo[p].front();
                a.got_priority = p;
                kernel.fifo[p].pop_front();
                a.ok = true;
            }
        } else if (a.step == 2) {
            if (a.ok) {
                const mq::Match m = mq::message_received(queue, channels[a.got_priority], kWindow);
                ++outcome.receives;
                if (m.exact) {
                    ++outcome.exact;
                    EXPECT_EQ(m.position, a.got.ticket) << "seed " << seed;
                    EXPECT_LE(channels[a.got_priority].tickets.load() - m.position, kWindow);
                }
            }
        } else {
            mq::receive_finished(queue);
            --a.operations_left;
        }
        a.step = (a.step + 1) % 4;
    }
    return outcome;
}

TEST(MqMatching, ExactMatchesAreTheKernelsMessage) {
    for (unsigned seed = 1; seed <= 3000; ++seed) {
        const int senders = 1 + static_cast<int>(seed % 3);
        const int receivers = 1 + static_cast<int>((seed / 3) % 2);
        simulate(seed, senders, receivers, 12);
    }
}

TEST(MqMatching, SequentialCallsAreMatchedExactly) {
    // one sender, one receiver: only sends can overlap nothing, receives nothing; many seeds
    // give runs in which every receive is exact (the matching is not vacuous)
    u64 exact = 0, receives = 0;
    for (unsigned seed = 1; seed <= 200; ++seed) {
        const Outcome o = simulate(seed, 1, 1, 12);
        exact += o.exact;
        receives += o.receives;
    }
    EXPECT_GT(receives, 0u);
    EXPECT_GT(exact, receives / 2);
}

TEST(MqMatching, OverlappingSendsOfAPriorityStopMatching) {
    mq::QueueCounters queue;
    mq::ChannelCounters channel;
    const u64 first = mq::send_started(channel);
    const u64 second = mq::send_started(channel); // while the first is in progress
    mq::send_finished(channel, second, true);     // its message may be queued first
    mq::send_finished(channel, first, true);
    mq::receive_started(queue);
    EXPECT_FALSE(mq::message_received(queue, channel, kWindow).exact);
    mq::receive_finished(queue);
}

TEST(MqMatching, AFailedSendGivesItsTicketBack) {
    mq::QueueCounters queue;
    mq::ChannelCounters channel;
    mq::send_finished(channel, mq::send_started(channel), false); // the queue was full
    const u64 ticket = mq::send_started(channel);
    mq::send_finished(channel, ticket, true);
    EXPECT_EQ(ticket, 0u);
    mq::receive_started(queue);
    const mq::Match m = mq::message_received(queue, channel, kWindow);
    mq::receive_finished(queue);
    EXPECT_TRUE(m.exact);
    EXPECT_EQ(m.position, 0u);
}

TEST(MqMatching, AMessageOfAnotherProcessStopsMatching) {
    mq::QueueCounters queue;
    mq::ChannelCounters channel;
    mq::receive_started(queue);
    EXPECT_FALSE(mq::message_received(queue, channel, kWindow).exact); // no ticket handed out
    mq::receive_finished(queue);
    EXPECT_TRUE(queue.unmatched.load());
}

} // namespace
