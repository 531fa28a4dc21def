#include "report_held_locks.hpp"

#include <algorithm>
#include <map>
#include <pthread.h>

namespace firstrace {
namespace {

bool is_lock(SyncObjectKind kind) {
    return kind == SyncObjectKind::Lock || kind == SyncObjectKind::RwLock ||
           kind == SyncObjectKind::SpinLock;
}

std::uint64_t lock_key(const SyncObject& o, std::uint32_t object) {
    return o.address != 0 ? o.address : (std::uint64_t{1} << 63) | object;
}

// A lock as the user calls it; the other kinds as the database spells them.
const char* kind_word(SyncObjectKind kind) {
    if (kind == SyncObjectKind::Lock) return "mutex";
    if (kind == SyncObjectKind::Other) return "object";
    return to_string(kind);
}

} // namespace

HeldLocks::HeldLocks(const Trace& trace) : changes_(trace.processes.size()) {
    struct Holding {
        std::uint32_t object;
        std::uint32_t acquired;
        std::uint32_t depth;
    };
    for (std::uint32_t p = 0; p < trace.processes.size(); ++p) {
        std::map<std::uint64_t, Holding> held;
        std::vector<std::uint64_t> order; // keys in acquisition order
        bool released = false;            // the previous event released the lock of `released_key`
        std::uint64_t released_key = 0;
        const auto& events = trace.processes[p].events;
        for (std::uint32_t i = 0; i < events.size(); ++i) {
            const Event& e = events[i];
            bool changed = false;
            if (released) {
                held.erase(released_key);
                order.erase(std::find(order.begin(), order.end(), released_key));
                released = false;
                changed = true;
            }
            if ((e.kind == EventKind::Acquire || e.kind == EventKind::Release) &&
                e.object < trace.objects.size() && is_lock(trace.objects[e.object].kind)) {
                const std::uint64_t key = lock_key(trace.objects[e.object], e.object);
                auto it = held.find(key);
                if (e.kind == EventKind::Acquire) {
                    if (it == held.end()) {
                        held.emplace(key, Holding{e.object, i, 1});
                        order.push_back(key);
                        changed = true;
                    } else if (it->second.object == e.object) {
                        ++it->second.depth;
                    }
                } else if (it != held.end() && --it->second.depth == 0) {
                    released = true; // the release event itself still holds the lock
                    released_key = key;
                }
            }
            if (!changed) continue;
            changes_[p].push_back({i, static_cast<std::uint32_t>(locks_.size()),
                                   static_cast<std::uint32_t>(order.size())});
            for (std::uint64_t k : order)
                locks_.push_back({held.at(k).object, held.at(k).acquired});
        }
    }
}

std::vector<HeldLock> HeldLocks::at(std::uint32_t process, std::uint32_t event) const {
    if (process >= changes_.size()) return {};
    const auto& c = changes_[process];
    auto it = std::upper_bound(c.begin(), c.end(), event,
                               [](std::uint32_t e, const Change& x) { return e < x.event; });
    if (it == c.begin()) return {};
    --it;
    return {locks_.begin() + it->first, locks_.begin() + it->first + it->count};
}

std::string sync_object_label(const Trace& trace, const MemoryNames& names, std::uint32_t object) {
    if (object >= trace.objects.size()) return {};
    const SyncObject& o = trace.objects[object];
    if (o.address == 0 || !trace.variable_names.empty()) return o.name;
    // The object's bytes (this platform's pthread types, which the traced program used too):
    // a member of exactly that size is named as a whole ("ring.lock", not its first byte).
    const std::uint64_t size = o.kind == SyncObjectKind::Lock       ? sizeof(pthread_mutex_t)
                               : o.kind == SyncObjectKind::RwLock   ? sizeof(pthread_rwlock_t)
                               : o.kind == SyncObjectKind::SpinLock ? sizeof(pthread_spinlock_t)
                                                                    : 1;
    const std::string where = names.name({o.address, o.address + size});
    if (where.rfind("0x", 0) == 0) return o.name; // the address names no variable or block
    const std::string kind = kind_word(o.kind);
    if (where.rfind("heap block", 0) == 0) return kind + " in " + where;
    return kind + " " + where;
}

std::string event_object_label(const Trace& trace, const MemoryNames& names, const Event& event) {
    if (event.kind == EventKind::Computation) return {};
    if (event.kind == EventKind::Fork || event.kind == EventKind::Join)
        return event.object < trace.processes.size() ? trace.processes[event.object].name
                                                     : std::string();
    return sync_object_label(trace, names, event.object);
}

std::vector<std::uint32_t> creation_events(const Trace& trace) {
    std::vector<std::uint32_t> out(trace.processes.size(), kNone);
    for (const Process& parent : trace.processes)
        for (std::uint32_t i = 0; i < parent.events.size(); ++i) {
            const Event& e = parent.events[i];
            if (e.kind == EventKind::Fork && e.object < out.size() && out[e.object] == kNone)
                out[e.object] = i;
        }
    return out;
}

} // namespace firstrace
