// Matching the receives of a POSIX message queue to its sends (rt_mq.cpp): the k-th message of a
// priority that a queue hands out is the k-th one sent with it (mq_overview(7): the oldest
// message of the highest priority first), so the k-th receive of a priority can acquire the k-th
// send alone. The runtime knows k only when nothing could reorder the calls around the kernel's
// queue: sends of the priority (a channel) never overlapped (two concurrent sends may take their
// tickets in the other order than the kernel queues their messages), receives of the queue never
// overlapped (a receive that returned later may have dequeued earlier), and no other process's
// messages are in the queue. Otherwise the channel or the queue is `unmatched` for good and a
// receive acquires every send of its priority. Only counters, no ordering of their own: the
// calls wrap the real ones, tested against a simulated kernel queue in tests/runtime.
#pragma once

#include <atomic>

#include "rt_internal.hpp"

namespace frt::mq {

struct ChannelCounters {
    std::atomic<u64> tickets{0};  // sends started (a failed one gives its ticket back)
    std::atomic<u64> received{0}; // receives that returned one of its messages
    std::atomic<u32> sending{0};  // sends in progress
    std::atomic<bool> unmatched{false};
};

struct QueueCounters {
    std::atomic<u32> receiving{0}; // receives in progress
    std::atomic<bool> unmatched{false};
};

// Before a send's real call: its ticket.
inline u64 send_started(ChannelCounters& c) {
    if (c.sending.fetch_add(1) != 0) c.unmatched.store(true);
    return c.tickets.fetch_add(1);
}
// After it: a failed send gives its ticket back, if no send took one since (else the tickets no
// longer follow the messages).
inline void send_finished(ChannelCounters& c, u64 ticket, bool sent) {
    u64 next = ticket + 1;
    if (!sent && !c.tickets.compare_exchange_strong(next, ticket)) c.unmatched.store(true);
    c.sending.fetch_sub(1);
}

inline void receive_started(QueueCounters& q) {
    if (q.receiving.fetch_add(1) != 0) q.unmatched.store(true);
}
struct Match {
    u64 position; // the message's number in its channel
    bool exact;   // it is the message of the send with this ticket
};
// After a receive returned a message of channel c, before receive_finished. `window`: how many
// later sends a ticket's object survives.
inline Match message_received(QueueCounters& q, ChannelCounters& c, u64 window) {
    const u64 position = c.received.fetch_add(1);
    // A receive that overlapped this one set q.unmatched when it started, before its dequeue and
    // its position: if its dequeue came later but its position first, the flag is seen here.
    if (c.unmatched.load() || q.unmatched.load()) return {position, false};
    const u64 tickets = c.tickets.load();
    if (position >= tickets) { // a message no send of this process made
        q.unmatched.store(true);
        return {position, false};
    }
    return {position, tickets - position <= window};
}
inline void receive_finished(QueueCounters& q) {
    q.receiving.fetch_sub(1);
}

} // namespace frt::mq
