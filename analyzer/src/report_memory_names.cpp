#include "report_memory_names.hpp"

#include <algorithm>

#include "report_call_stacks.hpp"

namespace firstrace {

MemoryNames::MemoryNames(const Trace& trace) : trace_(trace) {
    blocks_.reserve(trace.heap_blocks.size());
    for (std::uint32_t b = 0; b < trace.heap_blocks.size(); ++b) {
        const Interval& r = trace.heap_blocks[b].range;
        if (r.lo < r.hi) blocks_.push_back({r.lo, r.hi, 0, b});
    }
    std::sort(blocks_.begin(), blocks_.end(), [](const Entry& x, const Entry& y) {
        return x.lo != y.lo ? x.lo < y.lo : x.block < y.block;
    });
    std::uint64_t max_hi = 0;
    for (Entry& e : blocks_)
        e.max_hi = max_hi = std::max(max_hi, e.hi);
}

std::uint32_t MemoryNames::heap_block(const Interval& key) const {
    const Interval range = program_range(key); // a later lifetime's key: its bytes
    const std::uint64_t lifetime = lifetime_of(key.lo);
    // Candidates start at or before range.lo; walk back while some earlier block can still
    // reach past range.lo (the running maximum says when none can). The latest block of the
    // key's lifetime, else (a block allocated in another lifetime of some of its bytes, or
    // none known) the latest one.
    auto it = std::upper_bound(blocks_.begin(), blocks_.end(), range.lo,
                               [](std::uint64_t a, const Entry& e) { return a < e.lo; });
    std::uint32_t best = kNone, best_of_lifetime = kNone;
    while (it != blocks_.begin()) {
        --it;
        if (it->max_hi <= range.lo) break;
        if (range.lo >= it->hi) continue;
        if (best == kNone || it->block > best) best = it->block;
        if (trace_.heap_blocks[it->block].lifetime == lifetime &&
            (best_of_lifetime == kNone || it->block > best_of_lifetime))
            best_of_lifetime = it->block;
    }
    return best_of_lifetime != kNone ? best_of_lifetime : best;
}

std::string MemoryNames::name(const Interval& key) const {
    const Interval range = program_range(key); // a later lifetime's key: its bytes
    if (!trace_.variable_names.empty() || trace_.heap_blocks.empty()) return trace_.describe(range);
    const std::uint32_t b = heap_block(key);
    if (b == kNone) return trace_.describe(range);
    const HeapBlock& block = trace_.heap_blocks[b];
    const std::uint64_t size = block.range.hi - block.range.lo;
    std::string out = "heap block of " + std::to_string(size) + (size == 1 ? " byte" : " bytes");
    const std::uint32_t at =
        block.location == kNone
            ? kNone
            : headline_location(trace_, call_stack(trace_, block.location, block.context));
    if (at < trace_.locations.size()) {
        const SourceLocation& loc = trace_.locations[at];
        out += " allocated at ";
        if (!loc.function.empty()) out += loc.function + " ";
        out += loc.file.empty() ? "<unknown>"
                                : (loc.line ? loc.file + ":" + std::to_string(loc.line) : loc.file);
    }
    if (block.process < trace_.processes.size())
        out += " by " + trace_.processes[block.process].name;
    const std::uint64_t hi = std::min(range.hi, block.range.hi);
    const std::uint64_t n = hi - range.lo;
    out += ", offset " + std::to_string(range.lo - block.range.lo) + " (" + std::to_string(n) +
           (n == 1 ? " byte)" : " bytes)");
    return out;
}

} // namespace firstrace
