// The race sites of the races of one event a, with the minima that rank them, in one step per
// (race, node of its b on a segment of a) and one per joined (node of a, folded node) pair
// (issue 14; DESIGN-NOTES "Ranking every race site without one step per (race, race site)").
//
// The smallest race, smallest partition and "in a first partition" of a race site are minima
// over its races, so a race may be counted any number of times: for a block of races with the
// same event a, each race's key is folded into its b's nodes that lie on a segment of a (found
// by the galloping merge of report_site_nodes.hpp), one entry per distinct (segment, end,
// class) in the block; then a's nodes are joined with the folded entries of their segment. The
// entries of a block are found through a small hash table of the block alone (it stays in the
// cache, where a table over every node of the trace did not), and stored by a's segment with
// their key inline, so that the join reads them in sequence.
#pragma once

#include <cstdint>
#include <vector>

#include "report_site_nodes.hpp"
#include "report_site_rank_table.hpp"

namespace firstrace {

class SiteRankFolder {
  public:
    explicit SiteRankFolder(const SiteNodeIndex& index) : index_(index) {}

    // Starts the block of races whose event a is `a`.
    void begin(const EventRef& a) {
        ++block_;
        if (block_ == 0) { // wrapped: clear the stamps
            for (Slot& s : slots_)
                s.block = 0;
            block_ = 1;
        }
        entries_ = 0;
        auto [x, x_end] = index_.nodes(a);
        runs_.clear();
        while (x != x_end) {
            Run r;
            r.segment = x->segment;
            r.first = x;
            while (x != x_end && x->segment == r.segment)
                ++x;
            r.last = x;
            const std::size_t k = runs_.size();
            runs_.push_back(r);
            if (k == folded_.size()) folded_.emplace_back();
            folded_[k].clear();
        }
    }

    // Race ⟨a, b⟩ of the current block has key `key`.
    void fold(const EventRef& b, const SiteRankKey& key) {
        auto [y, y_end] = index_.nodes(b);
        const Run* runs = runs_.data();
        SiteNodeIndex::for_each_shared_segment(
            runs, runs + runs_.size(), y, y_end,
            [&](const Run* r, const Run*, const SiteNodeIndex::Node* ys,
                const SiteNodeIndex::Node* ye) {
                const std::uint32_t run = static_cast<std::uint32_t>(r - runs);
                for (const SiteNodeIndex::Node* n = ys; n != ye; ++n)
                    fold_entry(run, n->end_class, key);
                return false;
            });
    }

    // Calls f(end of a's node, end of the folded node, key) for each compatible pair of the
    // current block (a race site may be reported several times; the keys are minima).
    template <class F> void join(F&& f) const {
        for (std::size_t k = 0; k < runs_.size(); ++k) {
            const std::vector<Folded>& folded = folded_[k];
            if (folded.empty()) continue;
            for (const SiteNodeIndex::Node* x = runs_[k].first; x != runs_[k].last; ++x) {
                const std::uint32_t cx = x->cls(), ex = x->end();
                for (const Folded& y : folded)
                    if (SiteNodeIndex::compatible(cx, y.end_class & 3u))
                        f(ex, y.end_class >> 2, y.key);
            }
        }
    }

  private:
    // A segment of a: its nodes.
    struct Run {
        std::uint32_t segment;
        const SiteNodeIndex::Node* first;
        const SiteNodeIndex::Node* last;
    };
    // A folded (end, class) on a segment of a, with the minima of the races that brought it.
    struct Folded {
        std::uint32_t end_class;
        SiteRankKey key;
    };
    // The entry of (run, end_class) in this block: folded_[run][index].
    struct Slot {
        std::uint64_t key = 0;
        std::uint32_t block = 0;
        std::uint32_t index = 0;
    };

    void fold_entry(std::uint32_t run, std::uint32_t end_class, const SiteRankKey& key) {
        if ((entries_ + 1) * 2 > slots_.size()) grow();
        const std::uint64_t k = std::uint64_t(run) << 32 | end_class;
        for (std::size_t i = home(k);; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (s.block != block_) {
                s = {k, block_, static_cast<std::uint32_t>(folded_[run].size())};
                folded_[run].push_back({end_class, key});
                ++entries_;
                return;
            }
            if (s.key == k) {
                folded_[run][s.index].key.fold(key);
                return;
            }
        }
    }

    std::size_t home(std::uint64_t k) const {
        return static_cast<std::size_t>((k * 0x9e3779b97f4a7c15ull) >> 32) & mask_;
    }

    // Doubles the table and enters the block's entries again.
    void grow() {
        slots_.assign(slots_.empty() ? 64 : slots_.size() * 2, Slot{});
        mask_ = slots_.size() - 1;
        for (std::uint32_t run = 0; run < runs_.size(); ++run)
            for (std::uint32_t i = 0; i < folded_[run].size(); ++i) {
                const std::uint64_t k = std::uint64_t(run) << 32 | folded_[run][i].end_class;
                std::size_t j = home(k);
                while (slots_[j].block == block_)
                    j = (j + 1) & mask_;
                slots_[j] = {k, block_, i};
            }
    }

    const SiteNodeIndex& index_;
    std::uint32_t block_ = 0;
    std::vector<Run> runs_;                   // a's segments
    std::vector<std::vector<Folded>> folded_; // per run (reused across blocks)
    std::vector<Slot> slots_;                 // open addressing, stamped by block
    std::size_t mask_ = 0;
    std::size_t entries_ = 0; // of the current block
};

} // namespace firstrace
