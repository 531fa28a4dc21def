#include "firstrace/model.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace firstrace {

const char* to_string(MisuseKind kind) {
    switch (kind) {
    case MisuseKind::InitWithWaiters:
        return "init-with-waiters";
    case MisuseKind::DestroyWithWaiters:
        return "destroy-with-waiters";
    case MisuseKind::FreeWithWaiters:
        return "free-with-waiters";
    }
    return "misuse";
}

const char* to_string(SyncObjectKind kind) {
    switch (kind) {
    case SyncObjectKind::Lock:
        return "lock";
    case SyncObjectKind::RwLock:
        return "rwlock";
    case SyncObjectKind::SpinLock:
        return "spinlock";
    case SyncObjectKind::Semaphore:
        return "semaphore";
    case SyncObjectKind::Barrier:
        return "barrier";
    case SyncObjectKind::Condition:
        return "condition";
    case SyncObjectKind::Atomic:
        return "atomic";
    case SyncObjectKind::Other:
        return "other";
    }
    return "other";
}

const char* to_string(EventKind kind) {
    switch (kind) {
    case EventKind::Computation:
        return "computation";
    case EventKind::Fork:
        return "fork";
    case EventKind::Join:
        return "join";
    case EventKind::Acquire:
        return "acquire";
    case EventKind::Release:
        return "release";
    case EventKind::SemPost:
        return "sem-post";
    case EventKind::SemWait:
        return "sem-wait";
    case EventKind::BarrierArrive:
        return "barrier-arrive";
    case EventKind::BarrierDepart:
        return "barrier-depart";
    case EventKind::CondSignal:
        return "cond-signal";
    case EventKind::CondWait:
        return "cond-wait";
    case EventKind::Other:
        return "other";
    }
    return "?";
}

std::size_t Trace::event_count() const {
    std::size_t n = 0;
    for (const auto& p : processes)
        n += p.events.size();
    return n;
}

std::size_t Trace::access_count() const {
    return ranges.size();
}

std::string describe_within(const std::vector<DataType>& types, std::string name,
                            std::uint32_t type, std::uint64_t lo, std::uint64_t hi,
                            std::uint64_t size) {
    // Descend while [lo, hi) lies inside one member or one element (bounded: a corrupt type
    // table must not loop).
    for (int depth = 0; type < types.size() && depth < 32; ++depth) {
        const DataType& t = types[type];
        if (lo == 0 && hi >= size) break; // the whole object: not its first member's name
        if (t.kind == DataType::Kind::Record) {
            const DataMember* inside = nullptr;
            for (const DataMember& m : t.members) {
                const std::uint64_t msize = m.type < types.size() ? types[m.type].size : 0;
                if (lo >= m.offset && hi <= m.offset + msize) {
                    inside = &m;
                    break;
                }
            }
            if (inside == nullptr) break;
            if (!inside->name.empty()) name += "." + inside->name;
            lo -= inside->offset;
            hi -= inside->offset;
            type = inside->type;
            size = types[type].size;
        } else if (t.kind == DataType::Kind::Array && t.element < types.size() &&
                   types[t.element].size > 0) {
            const std::uint64_t esize = types[t.element].size;
            const std::uint64_t first = lo / esize, last = (hi - 1) / esize;
            if (first != last) {
                // Several elements: name the index range when whole elements conflict.
                if (lo % esize == 0 && hi % esize == 0 && !(lo == 0 && hi == size))
                    return name + "[" + std::to_string(first) + ".." + std::to_string(last) + "]";
                break;
            }
            name += "[" + std::to_string(first) + "]";
            lo -= first * esize;
            hi -= first * esize;
            type = t.element;
            size = esize;
        } else {
            break;
        }
    }
    if (lo == 0 && hi == size) return name;
    const std::uint64_t n = hi - lo;
    if (lo > 0) name += "+" + std::to_string(lo);
    return name + " (" + std::to_string(n) + (n == 1 ? " byte)" : " bytes)");
}

std::string Trace::describe(const Interval& key) const {
    if (!variable_names.empty()) {
        const Interval& range = key;
        std::string out;
        for (std::uint64_t v = range.lo; v < range.hi; ++v) {
            if (!out.empty()) out += ",";
            out += v < variable_names.size() ? variable_names[v] : "#" + std::to_string(v);
        }
        return out;
    }
    const Interval range = program_range(key); // a later lifetime's key: its bytes
    const auto it = std::upper_bound(data_symbols.begin(), data_symbols.end(), range.lo,
                                     [](std::uint64_t a, const DataSymbol& s) { return a < s.lo; });
    if (it != data_symbols.begin() && range.lo < std::prev(it)->hi) {
        const DataSymbol& sym = *std::prev(it);
        return describe_within(data_types, sym.name, sym.type, range.lo - sym.lo,
                               std::min(range.hi, sym.hi) - sym.lo, sym.hi - sym.lo);
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "0x%llx+%llu", static_cast<unsigned long long>(range.lo),
                  static_cast<unsigned long long>(range.hi - range.lo));
    return buf;
}

} // namespace firstrace
