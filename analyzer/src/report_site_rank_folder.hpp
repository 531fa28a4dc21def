// The race sites of the races of one event a, with the minima that rank them, in one step per
// (race, node of its b on a segment of a) and one per joined (node of a, folded node) pair
// (issue 14; DESIGN-NOTES "Ranking every race site without one step per (race, race site)").
//
// The smallest race, smallest partition and "in a first partition" of a race site are minima
// over its races, so a race may be counted any number of times: for a block of races with the
// same event a, each race contributes its b's nodes on the segments of a (found by the
// galloping merge of report_site_nodes.hpp) as pieces; at the end of the block the pieces are
// sorted by segment (a counting sort), each segment's nodes are folded into one entry per
// (end, class) with the minima of their races, and a's nodes on that segment are joined with
// them. The table that folds a segment's nodes is sized by that segment's nodes alone, so it
// stays in the cache: a table over every node of the trace, or over all entries of a block
// (10^5 and more with 128 threads), took a cache miss per folded node.
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
        auto [x, x_end] = index_.nodes(a);
        runs_.clear();
        while (x != x_end) {
            Run r;
            r.segment = x->segment;
            r.first = x;
            while (x != x_end && x->segment == r.segment)
                ++x;
            r.last = x;
            runs_.push_back(r);
        }
        keys_.clear();
        pieces_.clear();
    }

    // Race ⟨a, b⟩ of the current block has key `key`: its b's nodes on each segment of a.
    void fold(const EventRef& b, const SiteRankKey& key) {
        auto [y, y_end] = index_.nodes(b);
        const Run* runs = runs_.data();
        const std::uint32_t k = static_cast<std::uint32_t>(keys_.size());
        keys_.push_back(key);
        SiteNodeIndex::for_each_shared_segment(
            runs, runs + runs_.size(), y, y_end,
            [&](const Run* r, const Run*, const SiteNodeIndex::Node* ys,
                const SiteNodeIndex::Node* ye) {
                pieces_.push_back({ys, static_cast<std::uint32_t>(ye - ys),
                                   static_cast<std::uint32_t>(r - runs), k});
                return false;
            });
    }

    // Calls f(end of a's node, end of the folded node, key) for each compatible pair of the
    // current block (a race site may be reported several times; the keys are minima).
    template <class F> void join(F&& f) {
        // The pieces by segment of a (a counting sort), then each segment's folded nodes, one
        // entry per (end, class) with the minima of the races that brought it.
        start_.assign(runs_.size() + 1, 0);
        for (const Piece& p : pieces_)
            ++start_[p.run + 1];
        for (std::size_t k = 0; k < runs_.size(); ++k)
            start_[k + 1] += start_[k];
        by_run_.resize(pieces_.size());
        next_.assign(start_.begin(), start_.end() - 1);
        for (const Piece& p : pieces_)
            by_run_[next_[p.run]++] = p;
        for (std::size_t k = 0; k < runs_.size(); ++k) {
            if (start_[k] == start_[k + 1]) continue;
            std::size_t nodes = 0;
            for (std::size_t i = start_[k]; i < start_[k + 1]; ++i)
                nodes += by_run_[i].count;
            begin_segment(nodes);
            for (std::size_t i = start_[k]; i < start_[k + 1]; ++i) {
                const Piece& p = by_run_[i];
                for (const SiteNodeIndex::Node* n = p.nodes; n != p.nodes + p.count; ++n)
                    fold_node(n->end_class, keys_[p.key]);
            }
            for (const SiteNodeIndex::Node* x = runs_[k].first; x != runs_[k].last; ++x) {
                const std::uint32_t cx = x->cls(), ex = x->end();
                for (const Folded& y : folded_)
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
    // The nodes of a race's b on segment `run` of a; the race's key is keys_[key].
    struct Piece {
        const SiteNodeIndex::Node* nodes;
        std::uint32_t count;
        std::uint32_t run;
        std::uint32_t key;
    };
    // A folded (end, class) on the current segment, with the minima of the races that brought
    // it.
    struct Folded {
        std::uint32_t end_class;
        SiteRankKey key;
    };

    // Empties the table of folded nodes for a segment with at most `nodes` of them: open
    // addressing over folded_ indices, at most half full, cleared per segment (its size is
    // that of the segment's nodes, so it stays in the cache).
    void begin_segment(std::size_t nodes) {
        std::size_t size = 16;
        while (size < 2 * nodes)
            size *= 2;
        slots_.assign(size, kNone);
        mask_ = size - 1;
        folded_.clear();
    }

    std::size_t home(std::uint32_t end_class) const {
        return static_cast<std::size_t>((end_class * 0x9e3779b97f4a7c15ull) >> 32) & mask_;
    }

    void fold_node(std::uint32_t end_class, const SiteRankKey& key) {
        for (std::size_t i = home(end_class);; i = (i + 1) & mask_) {
            std::uint32_t& slot = slots_[i];
            if (slot == kNone) {
                slot = static_cast<std::uint32_t>(folded_.size());
                folded_.push_back({end_class, key});
                return;
            }
            if (folded_[slot].end_class == end_class) {
                folded_[slot].key.fold(key);
                return;
            }
        }
    }

    const SiteNodeIndex& index_;
    std::vector<Run> runs_;                 // a's segments
    std::vector<SiteRankKey> keys_;         // per race of the block
    std::vector<Piece> pieces_, by_run_;    // in race order; by segment of a
    std::vector<std::size_t> start_, next_; // per run: its first piece in by_run_
    std::vector<std::uint32_t> slots_;      // folded_ index per slot, kNone: empty
    std::size_t mask_ = 0;
    std::vector<Folded> folded_; // the current segment's
};

} // namespace firstrace
