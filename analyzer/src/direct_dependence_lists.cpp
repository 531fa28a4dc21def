#include "direct_dependence_lists.hpp"

#include <array>
#include <tuple>

namespace firstrace {

namespace {

// Sizes a direction's storage for its counts (offsets[e + 1]: e's stored entries), reusing what
// the other kind left.
void allocate(std::vector<std::uint32_t>& offsets, PageArray<std::uint32_t>& stored) {
    for (std::size_t e = 0; e + 1 < offsets.size(); ++e)
        offsets[e + 1] += offsets[e];
    if (stored.capacity() < offsets.back()) stored = PageArray<std::uint32_t>();
    stored.resize_for_overwrite(offsets.back());
}

} // namespace

DirectDependenceLists::DirectDependenceLists(const TemporalGraph& g,
                                             const UnorderedConflicts& conflicts,
                                             const EventClocks& clocks)
    : g_(g), conflicts_(conflicts), clocks_(clocks), by_runs_(conflicts.atomic_only.empty()),
      run_first_(g.event_count(), 0), run_length_(g.event_count(), 0) {
    if (by_runs_) find_by_runs();
}

// One pass over the races, a run of one a at a time: per race and kind the directions it gives
// (a -> b when a's accesses may control b's, or always for shared data, and the clocks allow
// it; b -> a alike), as bits, and per event the transposed entries it will store: b stores a
// when b -> a, and a among b's sources when a -> b.
void DirectDependenceLists::find_by_runs() {
    const ApparentRaceList& races = conflicts_.races;
    for (auto& kind : found_)
        for (Found& f : kind)
            f.gives.resize_for_overwrite(races.size()); // every word written below
    transposed_.assign(g_.event_count(), {0, 0, 0, 0});
    std::uint64_t word[2][2] = {{0, 0}, {0, 0}};
    std::uint64_t given[2] = {0, 0};
    auto flush = [&](std::uint32_t i) {
        for (std::size_t k = 0; k < 2; ++k)
            for (std::size_t d = 0; d < 2; ++d) {
                found_[k][d].gives.words()[i / 64] = word[k][d];
                word[k][d] = 0;
            }
    };
    races.for_each_run([&](std::uint32_t first, EventId a, const std::uint32_t* b,
                           const std::uint32_t* b_end) {
        run_b_ = b - first;
        run_first_[a.value] = first;
        run_length_[a.value] = static_cast<std::uint32_t>(b_end - b);
        for (std::uint32_t i = first; b != b_end; ++b, ++i) {
            const ApparentRace r = races.with_flags(i, a, EventId(*b));
            const bool ab = clocks_.allowed(a, r.b), ba = clocks_.allowed(r.b, a);
            const bool control_ab = ab && r.a_writes_b_reads, control_ba = ba && r.b_writes_a_reads;
            const std::uint32_t bit = i % 64;
            word[0][0] |= std::uint64_t(ab) << bit;
            word[0][1] |= std::uint64_t(ba) << bit;
            word[1][0] |= std::uint64_t(control_ab) << bit;
            word[1][1] |= std::uint64_t(control_ba) << bit;
            std::array<std::uint32_t, 4>& counts = transposed_[*b]; // one cache line
            counts[0] += ba;
            counts[1] += ab;
            counts[2] += control_ba;
            counts[3] += control_ab;
            given[0] += std::uint64_t(ab) + ba;
            given[1] += std::uint64_t(control_ab) + control_ba;
            if (bit == 63) flush(i);
        }
    });
    if (races.size() % 64 != 0) flush(static_cast<std::uint32_t>(races.size() - 1));
    given_[0] = given[0];
    given_[1] = given[1];
}

// The second pass, for one kind: each race's transposed entries, stored in race order, which
// is ascending per event (a ascending).
void DirectDependenceLists::select(DependenceKind kind) {
    kind_ = kind;
    if (!by_runs_) {
        select_by_dependences(kind);
        return;
    }
    Found* const found = found_[index(kind)];
    const bool both = !symmetric();
    auto offsets_of = [&](Direction& d, const Found& f, std::size_t column) {
        d.offsets.assign(g_.event_count() + 1, 0);
        for (std::size_t e = 0; e < transposed_.size(); ++e)
            d.offsets[e + 1] = transposed_[e][column];
        allocate(d.offsets, d.stored);
        d.gives = &f.gives;
    };
    offsets_of(out_, found[0], 2 * index(kind));
    if (both) offsets_of(in_, found[1], 2 * index(kind) + 1);
    const RaceBits& ab = found[0].gives;
    const RaceBits& ba = found[1].gives;
    if (!both) {
        std::vector<std::uint32_t> fill(out_.offsets.begin(), out_.offsets.end() - 1);
        conflicts_.races.for_each_run([&](std::uint32_t first, EventId a, const std::uint32_t* b,
                                          const std::uint32_t* b_end) {
            ba.for_each_set(first, first + static_cast<std::uint32_t>(b_end - b),
                            [&](std::uint32_t i) {
                                out_.stored[fill[b[i - first]]++] = a.value;
                                return true;
                            });
        });
        return;
    }
    // Both directions' cursors of an event side by side: one cache line a race.
    std::vector<std::array<std::uint32_t, 2>> fill(g_.event_count());
    for (std::size_t e = 0; e < fill.size(); ++e)
        fill[e] = {out_.offsets[e], in_.offsets[e]};
    conflicts_.races.for_each_run(
        [&](std::uint32_t first, EventId a, const std::uint32_t* b, const std::uint32_t* b_end) {
            for (std::uint32_t i = first; b != b_end; ++b, ++i) {
                std::array<std::uint32_t, 2>& at = fill[*b];
                if (ba[i]) out_.stored[at[0]++] = a.value;
                if (ab[i]) in_.stored[at[1]++] = a.value;
            }
        });
}

// The shared-data bits by race are the clocks' a -> b and b -> a (find_by_runs): their AND,
// in place, is the overlap. Without them (atomic-only pairs) it is found from the clocks.
RaceBits DirectDependenceLists::take_overlap() {
    RaceBits overlap;
    if (by_runs_) {
        overlap = std::move(found_[0][0].gives);
        const PageArray<std::uint64_t>& ba = found_[0][1].gives.words();
        PageArray<std::uint64_t>& words = overlap.words();
        for (std::size_t k = 0; k < words.size(); ++k)
            words[k] &= ba[k];
        return overlap;
    }
    overlap.resize_for_overwrite(conflicts_.races.size());
    std::fill(overlap.words().begin(), overlap.words().end(), 0);
    conflicts_.races.for_each([&](std::uint32_t i, EventId a, EventId b) {
        if (clocks_.overlap(a, b)) overlap.words()[i / 64] |= std::uint64_t(1) << (i % 64);
    });
    return overlap;
}

// With atomic-only pairs (a second list sorted by (a, b)), the dependences one at a time in the
// merged (a, b) order, every list stored whole: first the a's of the pairs where x is b,
// ascending, then the b's where it is a, ascending.
void DirectDependenceLists::select_by_dependences(DependenceKind kind) {
    auto for_each_dependence = [&](auto&& f) {
        const auto& atomic = conflicts_.atomic_only;
        auto visit = [&](const ApparentRace& r) {
            const bool ab = kind == DependenceKind::SharedData || r.a_writes_b_reads;
            const bool ba = kind == DependenceKind::SharedData || r.b_writes_a_reads;
            if (ab && clocks_.allowed(r.a, r.b)) f(r.a, r.b);
            if (ba && clocks_.allowed(r.b, r.a)) f(r.b, r.a);
        };
        std::size_t j = 0;
        conflicts_.races.for_each([&](std::uint32_t i, EventId a, EventId b) {
            for (; j < atomic.size() && std::tie(atomic[j].a, atomic[j].b) < std::tie(a, b); ++j)
                visit(atomic[j]);
            visit(conflicts_.races.with_flags(i, a, b));
        });
        for (; j < atomic.size(); ++j)
            visit(atomic[j]);
    };
    const std::uint32_t event_count = g_.event_count();
    out_.offsets.assign(event_count + 1, 0);
    in_.offsets.assign(event_count + 1, 0);
    out_.gives = in_.gives = &none_;
    for_each_dependence([&](EventId from, EventId to) {
        ++out_.offsets[from.value + 1];
        ++in_.offsets[to.value + 1];
    });
    allocate(out_.offsets, out_.stored);
    given_[index(kind)] = out_.offsets.back();
    {
        std::vector<std::uint32_t> fill(out_.offsets.begin(), out_.offsets.end() - 1);
        for_each_dependence(
            [&](EventId from, EventId to) { out_.stored[fill[from.value]++] = to.value; });
    }
    if (symmetric()) return;
    // The lists by target: the transposed lists by source, sources ascending.
    allocate(in_.offsets, in_.stored);
    std::vector<std::uint32_t> fill(in_.offsets.begin(), in_.offsets.end() - 1);
    for (std::uint32_t x = 0; x < event_count; ++x)
        for (std::uint32_t i = out_.offsets[x]; i < out_.offsets[x + 1]; ++i)
            in_.stored[fill[out_.stored[i]]++] = x;
}

} // namespace firstrace
