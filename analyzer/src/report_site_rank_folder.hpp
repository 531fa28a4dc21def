// The race sites of the races of one event a, with the minima that rank them, in one step per
// (race, node of its b on a segment of a) and one per joined (node of a, folded node) pair
// (issue 14; DESIGN-NOTES "Ranking every race site without one step per (race, race site)" and
// "The ranking pass: a fold chosen per block").
//
// The smallest race, smallest partition and "in a first partition" of a race site are minima
// over its races, so a race may be counted any number of times: for a block of races with the
// same event a, each race's b's nodes on the segments of a are folded into one entry per
// (segment of a, end, class) with the minima of the races that brought it, and at the end of
// the block a's nodes on each segment are joined with that segment's entries. Only b's nodes
// whose class is compatible with some node of a on their segment are folded (the others join
// with nothing), so a race that folds none has no race site instance.
//
// How a block folds is chosen when it begins, by the size of its table of entries:
//  - Cells: a's segments x (end, class) ids, at most kDenseCells of them (a few hundred KiB,
//    cache resident, reused by every block and reset through the list of cells touched). A b
//    is found on a's segments by a lookup per node of b in a per-segment array (a's run there)
//    when b is not much longer than a's runs, else by the galloping merge of
//    report_site_nodes.hpp. Dense traces (one hot variable, or a hundred, 10^5 lines: blocks of
//    2 000 races on a few segments and a hundred ends) fold here in a few steps per race.
//  - Pieces: otherwise (a's segments are many, or the ends are): a race records a piece (its b's
//    nodes on one segment of a, found by the galloping merge), the block's pieces are sorted by
//    segment (a counting sort), and each segment folds its nodes in a hash table sized to that
//    segment alone (random shape, 128 threads: blocks of up to 3.8·10^5 entries).
#pragma once

#include <cstdint>
#include <vector>

#include "report_site_nodes.hpp"
#include "report_site_rank_table.hpp"

namespace firstrace {

class SiteRankFolder {
  public:
    using Node = SiteNodeIndex::Node;

    // Segment ids of the nodes are below `segments`, their ends below `ends`.
    SiteRankFolder(std::size_t segments, std::size_t ends)
        : run_of_segment_(segments, 0), end_classes_(4 * ends) {}

    // Starts the block of races whose event a has the nodes [x, x_end) (sorted by segment).
    void begin(const Node* x, const Node* x_end) {
        runs_.clear();
        while (x != x_end) {
            Run r;
            r.segment = x->segment;
            r.first = x;
            for (; x != x_end && x->segment == r.segment; ++x)
                for (std::uint32_t c = 0; c < 4; ++c)
                    if (SiteNodeIndex::compatible(c, x->cls())) r.accepts |= 1u << c;
            r.last = x;
            runs_.push_back(r);
        }
        cells_mode_ = runs_.size() * end_classes_ <= kDenseCells;
        if (cells_mode_) {
            if (cells_.size() < runs_.size() * end_classes_)
                cells_.resize(runs_.size() * end_classes_);
            for (std::size_t k = 0; k < runs_.size(); ++k)
                run_of_segment_[runs_[k].segment] =
                    static_cast<std::uint32_t>(k) << 4 | runs_[k].accepts;
        }
        keys_.clear();
        pieces_.clear();
    }

    // Race ⟨a, b⟩ of the current block, b with the nodes [y, y_end), has key `key`. Returns
    // whether the race has a race site instance (a compatible pair of nodes on a shared
    // segment).
    bool fold(const Node* y, const Node* y_end, const SiteRankKey& key) {
        const Run* runs = runs_.data();
        bool any = false;
        if (cells_mode_) {
            const std::size_t n = static_cast<std::size_t>(y_end - y);
            if (n <= 8 * runs_.size() + 16) {
                // The cells of b's nodes on a's segments with a compatible class, collected
                // without a branch per node (on vars, 2.7 of b's 19 nodes are, at random), then
                // folded.
                if (found_.size() < n) found_.resize(n);
                const std::uint32_t* on_segment = run_of_segment_.data();
                const std::uint32_t end_classes = static_cast<std::uint32_t>(end_classes_);
                std::uint32_t* found = found_.data();
                std::size_t m = 0;
                for (; y != y_end; ++y) {
                    const std::uint32_t r = on_segment[y->segment];
                    found[m] = (r >> 4) * end_classes + y->end_class;
                    m += r >> y->cls() & 1u;
                }
                for (std::size_t i = 0; i < m; ++i)
                    fold_cell(found[i], key);
                return m > 0;
            } else {
                SiteNodeIndex::for_each_shared_segment(
                    runs, runs + runs_.size(), y, y_end,
                    [&](const Run* r, const Run*, const Node* ys, const Node* ye) {
                        const std::uint32_t k = static_cast<std::uint32_t>(r - runs);
                        for (const Node* n = ys; n != ye; ++n)
                            if (r->accepts >> n->cls() & 1u) {
                                fold_cell(k * static_cast<std::uint32_t>(end_classes_) +
                                              n->end_class,
                                          key);
                                any = true;
                            }
                        return false;
                    });
            }
            return any;
        }
        const std::uint32_t k = static_cast<std::uint32_t>(keys_.size());
        SiteNodeIndex::for_each_shared_segment(
            runs, runs + runs_.size(), y, y_end,
            [&](const Run* r, const Run*, const Node* ys, const Node* ye) {
                bool accepted = false;
                for (const Node* n = ys; n != ye && !accepted; ++n)
                    accepted = r->accepts >> n->cls() & 1u;
                if (accepted)
                    pieces_.push_back({ys, static_cast<std::uint32_t>(ye - ys),
                                       static_cast<std::uint32_t>(r - runs), k});
                any |= accepted;
                return false;
            });
        if (any) keys_.push_back(key);
        return any;
    }

    // Whether a race of the current block, b with the nodes [y, y_end), has a race site
    // instance (what fold returns), without folding it.
    bool instance(const Node* y, const Node* y_end) const {
        const Run* runs = runs_.data();
        if (cells_mode_ && std::size_t(y_end - y) <= 8 * runs_.size() + 16) {
            for (; y != y_end; ++y)
                if (run_of_segment_[y->segment] >> y->cls() & 1u) return true;
            return false;
        }
        return SiteNodeIndex::for_each_shared_segment(
            runs, runs + runs_.size(), y, y_end,
            [](const Run* r, const Run*, const Node* ys, const Node* ye) {
                for (const Node* n = ys; n != ye; ++n)
                    if (r->accepts >> n->cls() & 1u) return true;
                return false;
            });
    }

    // Calls f(end of a's node, end of the folded node, key) for each compatible pair of the
    // current block (a race site may be reported several times; the keys are minima), and
    // closes the block. A node of b with end y folds no key for which may_change(y, key) is
    // false: the caller's table would drop every pair of y with it (SiteRankTable::may_change;
    // the keys fold componentwise, so a key dropped alone changes nothing folded with others).
    template <class F, class MayChange> void join(F&& f, MayChange&& may_change) {
        if (cells_mode_) {
            for (std::uint32_t i : touched_) {
                const std::uint32_t k = i / end_classes_, end_class = i % end_classes_;
                SiteRankKey& key = cells_[i];
                if (may_change(end_class >> 2, key))
                    for (const Node* x = runs_[k].first; x != runs_[k].last; ++x)
                        if (SiteNodeIndex::compatible(x->cls(), end_class & 3u))
                            f(x->end(), end_class >> 2, key);
                key = SiteRankKey{};
            }
            touched_.clear();
            for (const Run& r : runs_)
                run_of_segment_[r.segment] = 0;
            return;
        }
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
                const SiteRankKey& key = keys_[p.key];
                for (const Node* n = p.nodes; n != p.nodes + p.count; ++n)
                    if (may_change(n->end(), key)) fold_node(n->end_class, key);
            }
            for (const Node* x = runs_[k].first; x != runs_[k].last; ++x) {
                const std::uint32_t cx = x->cls(), ex = x->end();
                for (const Folded& y : folded_)
                    if (SiteNodeIndex::compatible(cx, y.end_class & 3u))
                        f(ex, y.end_class >> 2, y.key);
            }
        }
    }

  private:
    // Cells of a block's table at most (12 bytes each).
    static constexpr std::size_t kDenseCells = std::size_t(1) << 15;

    // A segment of a: its nodes, and the classes of b's nodes compatible with one of them (bit
    // c for class c).
    struct Run {
        std::uint32_t segment;
        std::uint32_t accepts = 0;
        const Node* first;
        const Node* last;
    };
    // The nodes of a race's b on segment `run` of a; the race's key is keys_[key].
    struct Piece {
        const Node* nodes;
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

    // Cells: cell i (run k x (end, class) ids + (end, class)) folds `key`; a cell without a race
    // (smallest_race kNone) is untouched in this block.
    // Inline: hot at 10^5 lines folds 1.8·10^8 nodes, nearly all into cells already holding a
    // smaller race, a partition as small and the first-partition flag if the key has it.
    [[gnu::always_inline]] void fold_cell(std::uint32_t i, const SiteRankKey& key) {
        SiteRankKey& cell = cells_[i];
        if (cell.smallest_race == kNone) {
            touched_.push_back(i);
            cell = key;
        } else if (key.first_partition < cell.first_partition ||
                   (key.in_first_partition && !cell.in_first_partition) ||
                   key.smallest_race < cell.smallest_race) {
            cell.fold(key);
        }
    }

    // Pieces: empties the table of folded nodes for a segment with at most `nodes` of them:
    // open addressing over folded_ indices, at most half full, cleared per segment (its size is
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

    std::vector<Run> runs_; // a's segments
    // Cells: per segment, a's run there << 4 | its accepted classes (0: a has none there).
    std::vector<std::uint32_t> run_of_segment_;
    std::size_t end_classes_; // (end, class) ids are below this
    bool cells_mode_ = false;
    std::vector<SiteRankKey> cells_;        // cells: per (run, end, class), kNone race: untouched
    std::vector<std::uint32_t> touched_;    // cells: those touched in this block
    std::vector<std::uint32_t> found_;      // cells: those of one race's b
    std::vector<SiteRankKey> keys_;         // pieces: per race of the block with a piece
    std::vector<Piece> pieces_, by_run_;    // in race order; by segment of a
    std::vector<std::size_t> start_, next_; // per run: its first piece in by_run_
    std::vector<std::uint32_t> slots_;      // folded_ index per slot, kNone: empty
    std::size_t mask_ = 0;
    std::vector<Folded> folded_; // the current segment's
};

} // namespace firstrace
