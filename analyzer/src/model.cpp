#include "firstrace/model.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace firstrace {

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

std::string Trace::describe(const Interval& range) const {
    if (!variable_names.empty()) {
        std::string out;
        for (std::uint64_t v = range.lo; v < range.hi; ++v) {
            if (!out.empty()) out += ",";
            out += v < variable_names.size() ? variable_names[v] : "#" + std::to_string(v);
        }
        return out;
    }
    const auto it = std::upper_bound(data_symbols.begin(), data_symbols.end(), range.lo,
                                     [](std::uint64_t a, const DataSymbol& s) { return a < s.lo; });
    if (it != data_symbols.begin() && range.lo < std::prev(it)->hi) {
        const DataSymbol& sym = *std::prev(it);
        const std::uint64_t size = range.hi - range.lo;
        if (range.lo == sym.lo && range.hi == sym.hi) return sym.name;
        std::string out = sym.name;
        if (range.lo > sym.lo) out += "+" + std::to_string(range.lo - sym.lo);
        return out + " (" + std::to_string(size) + (size == 1 ? " byte)" : " bytes)");
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "0x%llx+%llu", static_cast<unsigned long long>(range.lo),
                  static_cast<unsigned long long>(range.hi - range.lo));
    return buf;
}

} // namespace firstrace
