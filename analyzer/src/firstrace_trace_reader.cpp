// Reader of the tracer's trace directory (format in trace_format.hpp): metadata, then every
// stream's chunks (checked, decompressed, concatenated) parsed into processes, events, access
// sites and synchronization objects; program counters symbolized post-mortem with libdw.
// A trace the program did not finish writing (crash, kill, _exit, threads still running) is
// read up to its last complete chunk and record and flagged `truncated`; corrupt input (bad
// magic, checksum, version, malformed records) is an InputError naming file and offset.
#include <zstd.h>

#include <algorithm>
#include <charconv>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "firstrace/errors.hpp"
#include "firstrace/trace_loader.hpp"
#include "flat_id_map.hpp"
#include "input_file.hpp"
#include "memory_lifetimes.hpp"
#include "range_compaction.hpp"
#include "symbolizer.hpp"
#include "symbolizer_reuse.hpp"
#include "sync_object_lifetimes.hpp"
#include "trace_event_log.hpp"
#include "trace_site_runs.hpp"
#include <firstrace/trace_format.hpp>

namespace firstrace {
namespace {

namespace fs = std::filesystem;
namespace fmt = firstrace::format;

std::string hex(std::uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string signal_name(long sig) {
    const char* abbrev = sigabbrev_np(static_cast<int>(sig));
    return "signal " + std::to_string(sig) + (abbrev ? std::string(" (SIG") + abbrev + ")" : "");
}

// Reads the decompressed records of a stream from a window of them: `data` holds the stream's
// raw bytes from offset `origin` on, and positions are offsets in the whole stream.
class ByteReader {
  public:
    ByteReader(const std::vector<unsigned char>& data, std::size_t origin, const std::string& file)
        : data_(data), file_(file), origin_(origin) {}
    bool at_end() const { return pos_ >= data_.size(); }
    std::size_t pos() const { return origin_ + pos_; }
    void seek(std::size_t p) { pos_ = p - origin_; }
    // Returns false at the end of the data (a truncated record).
    bool varint(std::uint64_t& v) {
        v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos_ >= data_.size()) return false;
            const unsigned char b = data_[pos_++];
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80)) return true;
        }
        throw InputError(file_, 0, "malformed varint at record offset " + std::to_string(pos()));
    }
    bool byte(std::uint8_t& b) {
        if (pos_ >= data_.size()) return false;
        b = data_[pos_++];
        return true;
    }

  private:
    const std::vector<unsigned char>& data_;
    const std::string& file_;
    std::size_t origin_;
    std::size_t pos_ = 0;
};

struct Truncated {}; // a record ran past the end of the data

constexpr std::uint64_t kNoWireId = std::numeric_limits<std::uint64_t>::max();

struct RawProcess {
    // The tracer's process id (dense in what it writes; anything in a corrupt trace): processes
    // are numbered by it in the Trace, densely (renumber_processes).
    std::uint64_t wire_id = kNoWireId;
    std::uint64_t wire_parent = kNoWireId; // the creator's wire id, resolved when renumbering
    bool declared = false;
    std::string name; // given by the program
    std::uint32_t parent = kNone;
    // The last Fork creating this process: (forking process, index of the Fork in its events).
    std::uint32_t fork_process = kNone;
    std::uint32_t fork_index = 0;
    bool ended = false;
    std::uint8_t kind = fmt::kProcThread;
    // The stream (OS thread) whose records hold the process's events; kMany when a task
    // migrated between threads (untied): then no storage is private to it.
    std::uint32_t stream = kNone;
    std::uint64_t private_below = 0;
    EventLog events;
};
constexpr std::uint32_t kMany = kNone - 1;

class TraceBuilder {
  public:
    TraceBuilder(Trace& trace, Symbolizer& symbolizer) : trace_(trace), symbolizer_(symbolizer) {}

    // Reads one stream file: each chunk is checked and decompressed, and the records complete
    // so far are parsed, so that only a chunk and the record spanning into it are held
    // decompressed (a recursive task program's stream is hundreds of megabytes raw: its calling
    // contexts are deep). Returns false when the stream was cut short.
    // The file is read chunk by chunk too (a stream file is 155 MB compressed for SQLite's test
    // program), and `progress` is told how many of its bytes were read so far.
    bool read_stream(const fs::path& path, const std::function<void(std::uint64_t)>& progress) {
        const std::string file = path.string();
        // Only a regular file, not through a symbolic link: a FIFO or /dev/zero planted as a
        // stream would hang the reader (issue 13).
        const RegularFile in(file, Symlinks::Refuse);
        std::vector<unsigned char> payload; // the chunk being read, compressed
        current_ = kNone;
        stack_contexts_.assign(1, kNone); // stack depot ids are local to a stream; 0 = none
        previous_pcs_.clear();
        previous_nodes_.clear();
        stream_ = static_cast<std::uint32_t>(stream_os_thread_.size());
        stream_os_thread_.push_back(kNone);
        std::vector<unsigned char> raw; // the stream's raw bytes from `origin` on, unparsed
        std::size_t origin = 0;
        // Parses the complete records of `raw`; a record running past its end is parsed again
        // once the next chunk is there (what it interned on the way is interned again, to the
        // same ids).
        const auto parse_complete_records = [&] {
            ByteReader r(raw, origin, file);
            std::size_t parsed = origin;
            while (!r.at_end()) {
                try {
                    if (!record(r, file)) throw Truncated{};
                } catch (const Truncated&) {
                    break;
                }
                parsed = r.pos();
            }
            raw.erase(raw.begin(), raw.begin() + static_cast<std::ptrdiff_t>(parsed - origin));
            origin = parsed;
        };
        bool complete = true;
        std::uint64_t offset = 0;
        std::uint32_t expected_seq = 0;
        for (;;) {
            fmt::ChunkHeader h;
            const std::size_t header_bytes = in.read_next(&h, sizeof h);
            if (header_bytes == 0) break;
            if (header_bytes < sizeof h) {
                complete = false;
                break;
            }
            if (std::memcmp(h.magic, fmt::kChunkMagic, 4) != 0)
                throw InputError(file, 0,
                                 "no chunk header at offset " + std::to_string(offset) +
                                     " (corrupt stream)");
            if (h.format_version != fmt::kFormatVersion)
                throw InputError(file, 0,
                                 "chunk at offset " + std::to_string(offset) +
                                     " has format version " + std::to_string(h.format_version) +
                                     ", expected " + std::to_string(fmt::kFormatVersion));
            if (h.header_size != sizeof h || h.raw_size > fmt::kMaxChunkRaw)
                throw InputError(file, 0,
                                 "malformed chunk header at offset " + std::to_string(offset));
            if (in.size() - offset - sizeof h < h.compressed_size) {
                complete = false; // the program died while writing this chunk
                break;
            }
            payload.resize(h.compressed_size);
            if (in.read_next(payload.data(), h.compressed_size) < h.compressed_size) {
                complete = false; // the file is shorter than when it was opened
                break;
            }
            if (fmt::chunk_checksum(h, payload.data(), h.compressed_size) != h.checksum)
                throw InputError(file, 0,
                                 "checksum mismatch in chunk " + std::to_string(h.sequence) +
                                     " at offset " + std::to_string(offset) + " (corrupt trace)");
            if (h.sequence != expected_seq)
                throw InputError(file, 0,
                                 "chunk " + std::to_string(h.sequence) + " at offset " +
                                     std::to_string(offset) + " out of sequence (expected " +
                                     std::to_string(expected_seq) + ")");
            ++expected_seq;
            const std::size_t base = raw.size();
            raw.resize(base + h.raw_size);
            const std::size_t got =
                ZSTD_decompress(raw.data() + base, h.raw_size, payload.data(), h.compressed_size);
            if (ZSTD_isError(got) || got != h.raw_size)
                throw InputError(
                    file, 0, "chunk at offset " + std::to_string(offset) + " does not decompress");
            offset += sizeof h + h.compressed_size;
            parse_complete_records();
            progress(offset);
        }
        return complete && raw.empty(); // else a record ends past the last complete chunk
    }

    // Once every stream is read: processes are numbered 0.. in the order of the tracer's ids
    // (its own numbering when that is dense, as the tracer writes it) and creators are resolved
    // from wire ids. Whatever ids a trace uses, per-process tables are as long as the
    // processes it has (issue 13: a 10 KB mutated trace naming process 700 000 made that many).
    void renumber_processes() {
        const auto n = static_cast<std::uint32_t>(processes_.size());
        std::vector<std::uint32_t> order(n); // new index -> old index
        for (std::uint32_t i = 0; i < n; ++i)
            order[i] = i;
        const auto by_wire_id = [&](std::uint32_t x, std::uint32_t y) {
            return processes_[x].wire_id < processes_[y].wire_id;
        };
        if (!std::is_sorted(order.begin(), order.end(), by_wire_id)) {
            std::sort(order.begin(), order.end(), by_wire_id);
            std::vector<std::uint32_t> renamed(n); // old index -> new index
            for (std::uint32_t i = 0; i < n; ++i)
                renamed[order[i]] = i;
            const auto rename = [&](std::uint32_t& index) {
                if (index < n) index = renamed[index];
            };
            std::vector<RawProcess> sorted(n);
            for (std::uint32_t i = 0; i < n; ++i)
                sorted[i] = std::move(processes_[order[i]]);
            processes_ = std::move(sorted);
            for (RawProcess& p : processes_) {
                rename(p.fork_process);
                for (Event& e : p.events)
                    if (e.kind == EventKind::Fork || e.kind == EventKind::Join) rename(e.object);
            }
            for (TaskBlock& b : task_blocks_)
                rename(b.pid);
            for (HeapBlock& b : trace_.heap_blocks)
                rename(b.process);
            for (Misuse& m : trace_.misuses)
                rename(m.process);
            for (StorageStart& b : storage_starts_)
                rename(b.process);
            for (LifetimeAcquires& a : lifetime_acquires_)
                rename(a.process);
            for (std::uint32_t i = 0; i < n; ++i)
                process_ids_.assign(processes_[i].wire_id, i);
        }
        for (RawProcess& p : processes_) {
            const std::uint32_t parent =
                p.wire_parent == kNoWireId ? FlatIdMap::kAbsent : process_ids_.find(p.wire_parent);
            p.parent = parent == FlatIdMap::kAbsent ? kNone : parent;
        }
    }

    // The consistent cut of a truncated trace (see consistent_cut below): returns what it
    // dropped, for the summary.
    struct CutSummary {
        std::size_t events = 0;
        std::size_t forks_added = 0; // thread creations the parent's stream lost
        std::vector<std::uint32_t> processes;
    };
    CutSummary cut_consistently();

    void finish(const ProgressCallback& progress) {
        read_.sites.move_to(trace_.sites);
        read_.ranges.move_to(trace_.ranges);
        drop_benign_ranges();
        original_ranges_ = trace_.ranges.size();
        own_relocated_runs();
        separate_task_blocks();
        separate_task_frames();
        settle_storage_starts();
        separate_lifetimes();
        compact_ranges();
        trace_.sites.shrink_to_fit(); // the growth's unused tail (mapped_array.hpp)
        trace_.ranges.shrink_to_fit();
        trace_.processes.reserve(processes_.size());
        for (RawProcess& raw : processes_) // no log's unused tail beside the copies below
            raw.events.shrink_to_fit();
        for (std::uint32_t pid = 0; pid < processes_.size(); ++pid) {
            Process p;
            const RawProcess& raw = processes_[pid];
            const char* kind = "thread ";
            if (raw.kind == fmt::kProcTask) kind = "task ";
            if (raw.kind == fmt::kProcImplicitTask) kind = "implicit task ";
            if (raw.kind == fmt::kProcChunk) kind = "chunk ";
            p.name = pid == 0 ? "main" : kind + std::to_string(pid);
            if (!processes_[pid].name.empty()) p.name += " (" + processes_[pid].name + ")";
            p.parent = processes_[pid].parent;
            if (raw.stream != kNone && raw.stream != kMany)
                p.os_thread = stream_os_thread_[raw.stream];
            if (p.os_thread != kNone) p.private_below = raw.private_below;
            p.events = processes_[pid].events.take(); // exactly sized (trace_event_log.hpp)
            trace_.processes.push_back(std::move(p));
        }
        std::vector<RawProcess>().swap(processes_);
        process_ids_.clear();
        // Symbolize each pc; a pc in inlined code gets one more location per inlined call,
        // chained through inlined_into (innermost frame = the pc's own location).
        // Paths under the source root (the working directory of the analysis) are written
        // relative to it: what a person types and what matches across machines.
        std::error_code ec;
        const fs::path root = fs::current_path(ec);
        auto shorten = [&](std::string& file) {
            if (ec || file.empty() || file[0] != '/') return;
            const fs::path relative = fs::path(file).lexically_relative(root);
            if (!relative.empty() && *relative.begin() != "..") file = relative.string();
        };
        const std::size_t pcs = trace_.locations.size();
        for (std::size_t l = 0; l < pcs; ++l) {
            if (progress && l % 1024 == 0)
                progress("symbolizing", static_cast<double>(l) / static_cast<double>(pcs));
            std::vector<SourceLocation> frames = symbolizer_.resolve_frames(trace_.locations[l].pc);
            trace_.locations[l] = std::move(frames.front());
            std::size_t previous = l;
            for (std::size_t f = 1; f < frames.size(); ++f) {
                trace_.locations[previous].inlined_into =
                    static_cast<std::uint32_t>(trace_.locations.size());
                previous = trace_.locations.size();
                trace_.locations.push_back(std::move(frames[f]));
            }
        }
        for (SourceLocation& loc : trace_.locations)
            shorten(loc.file);
    }

    // The relocations below rewrite the sites of OpenMP processes' events and of the
    // computation event before each task's fork in place: such an event gets a copy of its run
    // when the run is shared (trace_site_runs.hpp), so that the other events keep theirs.
    void own_relocated_runs() {
        const auto own = [&](Event& e) {
            if (e.kind == EventKind::Computation && site_runs_.shared(e.first_site)) own_run(e);
        };
        for (RawProcess& p : processes_)
            if (p.kind != fmt::kProcThread)
                for (Event& e : p.events)
                    own(e);
        for (const TaskBlock& b : task_blocks_) {
            if (b.pid >= processes_.size()) continue;
            RawProcess& task = processes_[b.pid];
            for (Event& e : task.events)
                own(e);
            if (task.fork_process != kNone && task.fork_index > 0 &&
                task.fork_index <= processes_[task.fork_process].events.size())
                own(processes_[task.fork_process].events[task.fork_index - 1]);
        }
    }

    // Gives event e a copy of its run of sites and their ranges (as they are now, relocated or
    // not), so that rewriting them leaves the other events of a shared run alone.
    void own_run(Event& e) {
        if (trace_.ranges.size() != trace_.sites.range_end()) {
            // A relocation put ranges after the last site's (replace_ranges): that site keeps
            // its own through relocated_site_, and the new sites' ranges follow the others.
            const auto last = static_cast<std::uint32_t>(trace_.sites.size() - 1);
            const AccessSite site = site_of(last);
            if (relocated_site_.find(last) == FlatIdMap::kAbsent) {
                relocated_site_.assign(last, static_cast<std::uint32_t>(relocated_ranges_.size()));
                relocated_ranges_.push_back({site.first_range, site.range_count});
                relocated_order_.push_back(last);
            }
            trace_.sites.set_range_end(static_cast<std::uint32_t>(trace_.ranges.size()));
        }
        const auto first = static_cast<std::uint32_t>(trace_.sites.size());
        for (std::uint32_t s = e.first_site; s < e.first_site + e.site_count; ++s) {
            AccessSite site = site_of(s);
            const auto first_range = static_cast<std::uint32_t>(trace_.ranges.size());
            for (std::uint32_t r = site.first_range; r < site.first_range + site.range_count; ++r)
                trace_.ranges.push_back(trace_.ranges[r]);
            site.first_range = first_range;
            trace_.sites.push_back(site);
        }
        e.first_site = first;
    }

    // Each OpenMP task's block (kRecTaskBlock) is its own storage for as long as the task lives,
    // then the runtime hands it to a later task: the same bytes are different variables. The
    // task's accesses there, and those of its creator's computation event just before the
    // fork (which fills in the firstprivate copies), move to an address range of their own
    // (kTaskBlockSpace | pid << 28 | offset), so that incarnations never conflict.
    void separate_task_blocks() {
        for (const TaskBlock& b : task_blocks_) {
            if (b.pid >= processes_.size() || b.hi <= b.lo || b.hi - b.lo >= (1ull << 28)) continue;
            const std::uint64_t base = kTaskBlockSpace | (std::uint64_t{b.pid} << 28);
            for (Event& e : processes_[b.pid].events)
                relocate(e, b, base);
            const RawProcess& task = processes_[b.pid];
            if (task.fork_process != kNone && task.fork_index > 0) {
                Event& init = processes_[task.fork_process].events[task.fork_index - 1];
                if (init.kind == EventKind::Computation) relocate(init, b, base);
            }
        }
    }

    // The frames an OpenMP task creates on its thread's stack (below its exit frame,
    // kRecPrivate) live only while the task runs; later tasks run by that thread put their
    // frames at the same addresses: the same bytes are different variables (a child task's
    // write to `a` of `fib` in its parent's frame, and a later task's `long a = 0` there, do not
    // conflict). Each access to a task's own frames (by the task, or by a descendant through a
    // shared variable) moves to an address range of that task (kTaskFrameSpace | pid << 28 |
    // offset), so that a task's frame variables conflict only with themselves. The owner of a
    // stack address is the nearest of the accessing process and its ancestors that ran on that
    // stack with the address below its exit frame. A chunk owns the frames below its exit frame
    // (its implicit task's) while it runs, so the chunks of one thread, which use them one
    // after the other, do not conflict there.
    void separate_task_frames() {
        const auto stack_of = [&](std::uint32_t pid) -> const OsThread* {
            const RawProcess& p = processes_[pid];
            if (p.stream == kNone || p.stream == kMany || p.private_below == 0) return nullptr;
            const std::uint32_t t = stream_os_thread_[p.stream];
            return t == kNone ? nullptr : &trace_.os_threads[t];
        };
        const auto owner = [&](std::uint32_t pid, const Interval& x) {
            for (std::uint32_t a = pid, depth = 0; a < processes_.size() && depth < (1u << 20);
                 a = processes_[a].parent, ++depth) {
                const OsThread* t = stack_of(a);
                if (t == nullptr || x.lo < t->stack.lo || x.hi > t->stack.hi) continue;
                const std::uint64_t below = processes_[a].private_below;
                if (x.hi <= below && below - x.lo <= kFrameSpan) return a;
            }
            return kNone;
        };
        for (std::uint32_t pid = 0; pid < processes_.size(); ++pid) {
            if (processes_[pid].kind == fmt::kProcThread) continue; // not an OpenMP process
            for (Event& e : processes_[pid].events) {
                if (e.kind != EventKind::Computation) continue;
                for (std::uint32_t s = e.first_site; s < e.first_site + e.site_count; ++s) {
                    const AccessSite site = site_of(s);
                    bool moved = false;
                    std::vector<Interval>& out = scratch_ranges_;
                    out.clear();
                    for (std::uint32_t r = site.first_range;
                         r < site.first_range + site.range_count; ++r) {
                        Interval x = trace_.ranges[r];
                        if (const std::uint32_t o = owner(pid, x); o != kNone) {
                            const std::uint64_t from = processes_[o].private_below - kFrameSpan;
                            const std::uint64_t base = kTaskFrameSpace | (std::uint64_t{o} << 28);
                            x = {base + (x.lo - from), base + (x.hi - from)};
                            moved = true;
                        }
                        out.push_back(x);
                    }
                    if (!moved) continue;
                    std::sort(out.begin(), out.end(),
                              [](const Interval& x, const Interval& y) { return x.lo < y.lo; });
                    replace_ranges(s, site, out);
                }
            }
        }
    }

    // [address, address + size) when it is a range of program addresses with room for
    // lifetime keys, else nothing.
    static std::optional<Interval> lifetime_range(std::uint64_t address, std::int64_t size) {
        if (address == 0 || size <= 0) return std::nullopt;
        const std::uint64_t hi = address + static_cast<std::uint64_t>(size);
        if (hi <= address || hi > kProgramAddressEnd) return std::nullopt;
        return Interval{address, hi};
    }

    // A reuse of freed memory (the allocation's or mapping's Acquire of another process's free,
    // with the new block: tracer rt_reuse_ordering.hpp) starts a new lifetime of its bytes
    // instead of ordering the two processes (memory_lifetimes.hpp). Older traces (address 0, no
    // size): the Acquire stays an ordering. Called while reading the Acquire.
    bool reuse_starts_lifetime(std::uint8_t cls, std::uint64_t address, std::int64_t size,
                               std::uint64_t clock) {
        if (cls != fmt::kObjHeapBlock) return false;
        const std::optional<Interval> block = lifetime_range(address, size);
        if (!block) return false;
        const Interval range = *block;
        // One allocation acquires every free that gave back part of it, in consecutive
        // records: one start.
        const auto index = static_cast<std::uint32_t>(processes_[current_].events.size());
        const bool same_allocation = !lifetime_starts_.empty() &&
                                     lifetime_starts_.back().range == range &&
                                     lifetime_process_ == current_ && lifetime_event_ + 1 == index;
        if (same_allocation) {
            lifetime_acquires_.back().last = index;
        } else {
            lifetime_starts_.push_back(
                {range, clock, static_cast<std::uint32_t>(lifetime_acquires_.size())});
            lifetime_acquires_.push_back({current_, index, index});
        }
        lifetime_process_ = current_;
        lifetime_event_ = index;
        return true;
    }

    // A thread's start on the cached stack block of one that ended: the block (an Other of
    // kObjThreadStorage with its range), then the Acquire of the earlier thread's end. Called
    // while reading each (the Acquire's index is the next event's).
    void storage_block_read(std::uint8_t cls, std::uint64_t address, std::int64_t size,
                            std::uint64_t clock) {
        if (cls == fmt::kObjMapping) return mapping_read(address, size, clock);
        if (cls != fmt::kObjThreadStorage) return;
        const auto index = static_cast<std::uint32_t>(processes_[current_].events.size());
        if (const std::optional<Interval> block = lifetime_range(address, size))
            storage_starts_.push_back({{*block, clock}, current_, index + 1, stream_});
    }
    // A new mapping (mmap) starts a new lifetime of its range: the kernel maps addresses only
    // where nothing is mapped, so whatever used them before had them unmapped first, also when
    // that unmapping is not in the trace (glibc unmapping a dead thread's cached stack, or a
    // large freed block, in its own code). No Acquire belongs to it.
    void mapping_read(std::uint64_t address, std::int64_t size, std::uint64_t clock) {
        if (const std::optional<Interval> range = lifetime_range(address, size)) {
            lifetime_starts_.push_back(
                {*range, clock, static_cast<std::uint32_t>(lifetime_acquires_.size())});
            lifetime_acquires_.push_back({kNone, kNone, kNone});
            lifetime_process_ = kNone; // an Acquire after it starts a lifetime of its own
        }
    }
    // Once every stream is read: a thread on a cached stack starts a new lifetime of the block
    // and its Acquire orders nothing, except on an OS thread whose private storage the
    // analysis knows (OpenMP's: Trace::private_to_both compares program addresses with its
    // stack): there the Acquire orders the two threads, as before.
    void settle_storage_starts() {
        for (const StorageStart& s : storage_starts_) {
            if (s.stream < stream_os_thread_.size() && stream_os_thread_[s.stream] != kNone)
                continue;
            LifetimeAcquires acquires{kNone, kNone, kNone};
            if (s.process < processes_.size() && s.acquire < processes_[s.process].events.size()) {
                Event& acquire = processes_[s.process].events[s.acquire];
                if (acquire.kind == EventKind::Acquire &&
                    trace_.objects[acquire.object].kind == SyncObjectKind::Other) {
                    acquire.kind = EventKind::Other;
                    acquires = {s.process, s.acquire, s.acquire};
                }
            }
            lifetime_starts_.push_back({s.start.range, s.start.clock,
                                        static_cast<std::uint32_t>(lifetime_acquires_.size())});
            lifetime_acquires_.push_back(acquires);
        }
        storage_starts_.clear();
    }

    // Moves each access to reused memory to the key of its lifetime (memory_lifetimes.hpp): the
    // computation events touching reused bytes, in the order of their end, against the
    // starts in effect then. An event whose site run is shared gets a copy of it first. A
    // synchronization operation on an object in reused memory likewise goes to the object of
    // its lifetime (sync_object_lifetimes.hpp).
    void separate_lifetimes() {
        if (lifetime_starts_.empty()) return;
        MemoryLifetimes lifetimes(std::move(lifetime_starts_));
        lifetime_starts_ = {};
        for (const LifetimeStart& s : lifetimes.left_out())
            keep_ordering(s.tag);
        lifetime_acquires_ = {};
        struct Touching {
            std::uint64_t clock;
            std::uint32_t process, event; // process kNone: heap block `event`
        };
        std::vector<Touching> touching;
        // A heap block is in the lifetime in effect on its bytes at the end of the event it was
        // allocated in (HeapBlock::event), that event's own reuse included: the allocation's
        // Acquire of another process's free ends that event or is it; the bytes can change
        // hands only after a free, which ends the event too.
        for (std::uint32_t b = 0; b < trace_.heap_blocks.size(); ++b) {
            const HeapBlock& block = trace_.heap_blocks[b];
            if (!lifetimes.touches(block.range) || block.process >= processes_.size()) continue;
            const EventLog& events = processes_[block.process].events;
            const std::uint64_t end = block.event < events.size()
                                          ? events[block.event].clock_finish + 1
                                          : std::numeric_limits<std::uint64_t>::max();
            touching.push_back({end, kNone, b});
        }
        for (std::uint32_t p = 0; p < processes_.size(); ++p) {
            const EventLog& events = processes_[p].events;
            for (std::uint32_t i = 0; i < events.size(); ++i) {
                const Event& e = events[i];
                if (e.kind == EventKind::Computation ? touches(e, lifetimes)
                                                     : object_in_reused_memory(e, lifetimes))
                    touching.push_back({e.clock_finish, p, i});
            }
        }
        SyncObjectLifetimes objects(trace_.objects);
        std::stable_sort(touching.begin(), touching.end(),
                         [](const Touching& a, const Touching& b) { return a.clock < b.clock; });
        std::vector<Interval>& out = scratch_ranges_;
        const auto ignore = [](const Interval&) {};
        for (const Touching& t : touching) {
            lifetimes.advance_to(t.clock);
            if (t.process == kNone) {
                HeapBlock& block = trace_.heap_blocks[t.event];
                block.lifetime = static_cast<std::uint32_t>(lifetimes.lifetime_at(block.range.lo));
                continue;
            }
            Event& e = processes_[t.process].events[t.event];
            if (e.kind != EventKind::Computation) { // a synchronization operation
                const std::uint64_t address = trace_.objects[e.object].address;
                e.object = objects.in_lifetime(e.object, lifetimes.lifetime_at(address));
                continue;
            }
            bool moves = false;
            // An event that began before a start of its bytes keeps them in the lifetime
            // before it too (MemoryLifetimes::split).
            const std::uint64_t since = e.clock_start;
            for_each_range(e,
                           [&](const Interval& x) { moves |= lifetimes.split(x, ignore, since); });
            if (!moves) continue; // all in the bytes' first lifetime
            if (site_runs_.shared(e.first_site)) own_run(e);
            for (std::uint32_t s = e.first_site; s < e.first_site + e.site_count; ++s) {
                const AccessSite site = site_of(s);
                out.clear();
                bool moved = false;
                for (std::uint32_t r = site.first_range; r < site.first_range + site.range_count;
                     ++r)
                    moved |= lifetimes.split(
                        trace_.ranges[r], [&](const Interval& x) { out.push_back(x); }, since);
                if (!moved) continue;
                sort_and_merge(out);
                replace_ranges(s, site, out);
            }
        }
    }

    // A start MemoryLifetimes left out (its bytes had run out of lifetime keys): its Acquires,
    // made Other events while reading, order the reuse after the frees again.
    void keep_ordering(std::uint32_t tag) {
        const auto& a = lifetime_acquires_[tag];
        if (a.process >= processes_.size()) return;
        EventLog& events = processes_[a.process].events;
        for (std::uint32_t i = a.first; i <= a.last && i < events.size(); ++i)
            if (events[i].kind == EventKind::Other &&
                trace_.objects[events[i].object].kind == SyncObjectKind::Other)
                events[i].kind = EventKind::Acquire;
    }

    template <class F> void for_each_range(const Event& e, F&& f) const {
        for (std::uint32_t s = e.first_site; s < e.first_site + e.site_count; ++s) {
            const AccessSite site = site_of(s);
            for (std::uint32_t r = site.first_range; r < site.first_range + site.range_count; ++r)
                f(trace_.ranges[r]);
        }
    }
    // Whether e operates on an object in program memory (sync_object_lifetimes.hpp) whose first
    // byte some start reuses. Only objects the reader made have a class: not the copies for
    // later lifetimes, which separate_lifetimes makes once it has visited an event.
    bool object_in_reused_memory(const Event& e, const MemoryLifetimes& lifetimes) const {
        if (e.kind == EventKind::Fork || e.kind == EventKind::Join ||
            e.object >= object_class_.size() || !lives_in_program_memory(object_class_[e.object]))
            return false;
        const std::uint64_t address = trace_.objects[e.object].address;
        return address < kProgramAddressEnd && lifetimes.touches({address, address + 1});
    }
    bool touches(const Event& e, const MemoryLifetimes& lifetimes) const {
        bool touched = false;
        for_each_range(e, [&](const Interval& x) { touched = touched || lifetimes.touches(x); });
        return touched;
    }

    // The relocations above give a moved site new ranges (relocated_ranges_), at the end of
    // Trace::ranges or in place of fewer, and leave its old ones unused (half of all ranges in
    // a recursive task program): keep only the ranges of sites, in site order, as the site
    // table stores them (a site's ranges end where the next one's start), in place
    // (range_compaction.hpp).
    void compact_ranges() {
        // Nothing to do when nothing moved: the ranges are in site order already.
        if (relocated_ranges_.empty()) return;
        const auto sites = static_cast<std::uint32_t>(trace_.sites.size());
        std::vector<bool> relocated(sites);
        for (const std::uint32_t s : relocated_order_)
            if (s < sites) relocated[s] = true;
        const std::size_t used = compact_ranges_in_place(
            trace_.ranges, sites, original_ranges_,
            [&](std::uint32_t s) -> RangeSpan {
                if (relocated[s]) return relocated_ranges_[relocated_site_.find(s)];
                return {trace_.sites.first_range(s), trace_.sites.range_count(s)};
            },
            [&](std::uint32_t s, std::uint32_t first) { trace_.sites.set_first_range(s, first); });
        trace_.sites.set_range_end(static_cast<std::uint32_t>(used));
        relocated_site_.clear();
        relocated_ranges_.clear();
        relocated_order_.clear();
    }

    // Site s as it is now: with the ranges a relocation gave it, if any.
    AccessSite site_of(std::uint32_t s) const {
        AccessSite site = trace_.sites[s];
        if (const std::uint32_t k = relocated_site_.find(s); k != FlatIdMap::kAbsent) {
            site.first_range = relocated_ranges_[k].first;
            site.range_count = relocated_ranges_[k].count;
        }
        return site;
    }

    // Threads without an end. A thread the metadata names as not started when the trace ended
    // (`not_started`: tracer ids) and that recorded nothing of its own lost nothing: not one.
    std::vector<std::uint32_t> unfinished(const std::vector<std::uint64_t>& not_started) const {
        std::vector<std::uint64_t> never_started = not_started; // sorted: a hostile file's
        std::sort(never_started.begin(), never_started.end());  // millions stay n log n
        std::vector<std::uint32_t> out;
        // logical processes (OpenMP tasks and chunks) end with their thread, which is checked
        for (std::uint32_t pid = 0; pid < processes_.size(); ++pid) {
            const RawProcess& p = processes_[pid];
            if (p.ended || p.kind != fmt::kProcThread) continue;
            if (!p.declared && p.events.empty() &&
                std::binary_search(never_started.begin(), never_started.end(), p.wire_id))
                continue;
            out.push_back(pid);
        }
        return out;
    }

    // Process ids index dense tables, so one record naming process 4 000 000 would make the
    // reader build four million processes (the fuzzer's 25 KB trace took seconds and a
    // gigabyte, issue 13). The tracer numbers processes densely and each one it records leaves
    // records of several bytes, compressed far less than 64 to 1: more than 64 processes per
    // byte of the stream files (plus a margin for tiny traces) is a corrupt trace.
    void limit_processes(std::uint64_t stream_bytes) {
        max_processes_ = static_cast<std::uint32_t>(
            std::min<std::uint64_t>(kMaxProcesses, stream_bytes * 64 + 4096));
    }

  private:
    static constexpr std::uint32_t kMaxProcesses = 1u << 22;
    std::uint32_t max_processes_ = kMaxProcesses;

    // AnnotateBenignRace(Sized): the declared bytes leave every access range.
    void drop_benign_ranges() {
        if (benign_.empty()) return;
        std::sort(benign_.begin(), benign_.end(),
                  [](const Interval& a, const Interval& b) { return a.lo < b.lo; });
        std::vector<Interval> merged;
        for (const Interval& b : benign_) {
            if (!merged.empty() && b.lo <= merged.back().hi)
                merged.back().hi = std::max(merged.back().hi, b.hi);
            else
                merged.push_back(b);
        }
        RangeTable ranges;
        ranges.reserve(trace_.ranges.size());
        for (std::uint32_t s = 0; s < trace_.sites.size(); ++s) {
            const AccessSite site = trace_.sites[s]; // before its start is rewritten
            const auto first = static_cast<std::uint32_t>(ranges.size());
            for (std::uint32_t k = site.first_range; k < site.first_range + site.range_count; ++k) {
                Interval r = trace_.ranges[k];
                auto it =
                    std::upper_bound(merged.begin(), merged.end(), r.lo,
                                     [](std::uint64_t v, const Interval& b) { return v < b.hi; });
                for (; it != merged.end() && it->lo < r.hi && r.lo < r.hi; ++it) {
                    if (it->lo > r.lo) ranges.push_back({r.lo, it->lo});
                    r.lo = std::min(r.hi, it->hi);
                }
                if (r.lo < r.hi) ranges.push_back(r);
            }
            trace_.sites.set_first_range(s, first);
        }
        trace_.sites.set_range_end(static_cast<std::uint32_t>(ranges.size()));
        trace_.ranges = std::move(ranges);
    }

    // The index of the process the tracer calls `wire_id`, added when first named. Indices are
    // given in the order processes are first seen, and made the order of wire ids by
    // renumber_processes once every stream is read.
    std::uint32_t process_index(std::uint64_t wire_id, const std::string& file) {
        const auto index = static_cast<std::uint32_t>(processes_.size());
        const auto [id, inserted] = process_ids_.try_emplace(wire_id, index);
        if (!inserted) return id;
        if (index >= max_processes_)
            throw InputError(file, 0,
                             "process id " + std::to_string(wire_id) +
                                 " is one too many (more processes than the streams can hold)");
        processes_.emplace_back().wire_id = wire_id;
        return index;
    }
    RawProcess& process(std::uint64_t wire_id, const std::string& file) {
        return processes_[process_index(wire_id, file)];
    }

    std::uint32_t location(std::uint64_t pc) {
        const auto [id, inserted] =
            locations_.try_emplace(pc, static_cast<std::uint32_t>(trace_.locations.size()));
        if (inserted) {
            SourceLocation loc;
            loc.pc = pc;
            trace_.locations.push_back(loc);
        }
        return id;
    }

    // A calling-context frame's location, or kNone for a frame of the tracer's runtime (its
    // thread start wrapper): answered once per distinct pc, not by a walk over the modules
    // per frame.
    std::uint32_t frame_location(std::uint64_t pc) {
        constexpr std::uint32_t kRuntimeFrame = kNone - 1; // FlatIdMap cannot store kNone
        std::uint32_t loc = frame_locations_.find(pc);
        if (loc == FlatIdMap::kAbsent) {
            loc = symbolizer_.in_runtime(pc) ? kRuntimeFrame : location(pc);
            frame_locations_.assign(pc, loc);
        }
        return loc == kRuntimeFrame ? kNone : loc;
    }

    static void name_object(SyncObject& o, const char* prefix, std::uint64_t address,
                            std::uint64_t incarnation) {
        o.address = address;
        o.name = std::string(prefix) + "@" + hex(address);
        if (incarnation > 1) o.name += "#" + std::to_string(incarnation);
    }

    std::uint32_t object(std::uint8_t cls, std::uint64_t address, std::uint64_t incarnation,
                         std::int64_t extra, const std::string& file) {
        // A free's object (kObjHeapBlock) is named by its incarnation, unique per free: the
        // Release carries the freed block's address, the Acquires of the threads that got its
        // bytes carry 0 (they know the free by its tag only; tracer rt_freed_memory.hpp).
        const bool heap_free = cls == fmt::kObjHeapBlock && incarnation != 0;
        const std::tuple<std::uint8_t, std::uint64_t, std::uint64_t> key{
            cls, heap_free ? 0 : address, incarnation};
        auto [it, inserted] =
            objects_.try_emplace(key, static_cast<std::uint32_t>(trace_.objects.size()));
        if (!inserted && heap_free && address != 0 && trace_.objects[it->second].address == 0)
            name_object(trace_.objects[it->second], "heap-block", address, incarnation);
        if (inserted) {
            SyncObject o;
            const char* prefix = "object";
            switch (cls) {
            case fmt::kObjMutex:
                o.kind = SyncObjectKind::Lock;
                prefix = "mutex";
                break;
            case fmt::kObjRwLock:
                o.kind = SyncObjectKind::RwLock;
                prefix = "rwlock";
                break;
            case fmt::kObjSpinLock:
                o.kind = SyncObjectKind::SpinLock;
                prefix = "spinlock";
                break;
            case fmt::kObjSemaphore:
                o.kind = SyncObjectKind::Semaphore;
                prefix = "semaphore";
                break;
            case fmt::kObjBarrier:
                o.kind = SyncObjectKind::Barrier;
                prefix = "barrier";
                break;
            case fmt::kObjCondition:
                o.kind = SyncObjectKind::Condition;
                prefix = "cond";
                break;
            case fmt::kObjAtomic:
                o.kind = SyncObjectKind::Atomic;
                prefix = "atomic";
                break;
            case fmt::kObjHeapBlock:
                o.kind = SyncObjectKind::Other;
                prefix = "heap-block";
                break;
            case fmt::kObjAnnotation:
                o.kind = SyncObjectKind::Other;
                prefix = "annotation";
                break;
            case fmt::kObjRwLockReaders:
                o.kind = SyncObjectKind::RwLock;
                prefix = "rwlock-readers";
                break;
            case fmt::kObjThreadStorage:
                o.kind = SyncObjectKind::Other;
                prefix = "thread-storage";
                break;
            case fmt::kObjFile:
                o.kind = SyncObjectKind::Other;
                prefix = "file";
                break;
            case fmt::kObjOnce:
                o.kind = SyncObjectKind::Other;
                prefix = "once";
                break;
            case fmt::kObjFiber:
                o.kind = SyncObjectKind::Other;
                prefix = "fiber";
                break;
            case fmt::kObjSignal:
                o.kind = SyncObjectKind::Other;
                prefix = "signal";
                break;
            case fmt::kObjFutex:
                o.kind = SyncObjectKind::Other;
                prefix = "futex";
                break;
            case fmt::kObjAsyncIo:
                o.kind = SyncObjectKind::Other;
                prefix = "aio";
                break;
            case fmt::kObjMapping:
                o.kind = SyncObjectKind::Other;
                prefix = "mapping";
                break;
            case fmt::kObjIpc:
                o.kind = SyncObjectKind::Other;
                prefix = "ipc";
                break;
            case fmt::kObjGLibBitLock:
                o.kind = SyncObjectKind::Lock;
                prefix = "glib-bit-lock";
                break;
            case fmt::kObjGLibPoolTask:
                o.kind = SyncObjectKind::Other;
                prefix = "glib-pool-task";
                break;
            case fmt::kObjGLibPoolDone:
                o.kind = SyncObjectKind::Other;
                prefix = "glib-pool";
                break;
            case fmt::kObjOmpMutex:
                o.kind = SyncObjectKind::Lock;
                prefix = "omp-lock";
                break;
            case fmt::kObjOmpBarrier:
                o.kind = SyncObjectKind::Barrier;
                prefix = "omp-team";
                break;
            case fmt::kObjOmpTaskDone:
                o.kind = SyncObjectKind::Other;
                prefix = "omp-task-done";
                break;
            case fmt::kObjOmpMutexSet:
                o.kind = SyncObjectKind::Lock;
                prefix = "omp-mutexinoutset";
                break;
            case fmt::kObjOmpDoacross:
                o.kind = SyncObjectKind::Other;
                prefix = "omp-doacross";
                break;
            case fmt::kObjBarrierExits:
                o.kind = SyncObjectKind::Other;
                prefix = "barrier-exits";
                break;
            default:
                throw InputError(file, 0,
                                 "unknown synchronization object class " + std::to_string(cls));
            }
            name_object(o, prefix, address, incarnation);
            if (cls == fmt::kObjSemaphore) o.initial_value = extra;
            trace_.objects.push_back(o);
            object_extra_.push_back(extra);
            object_class_.push_back(cls);
        }
        return it->second;
    }

    // Reads `depth, pcs...` and returns the calling-context node of the innermost frame.
    // Consecutive records of a stream mostly share their outer frames (a recursive task
    // program's stacks are hundreds of frames deep and differ at the innermost few): the
    // frames equal to the previous context's are taken from it, and only the rest is interned
    // by (parent node, location). The node ids are those the interning alone would give.
    std::uint32_t context(ByteReader& r) {
        std::uint64_t depth;
        if (!r.varint(depth)) throw Truncated{};
        std::uint32_t node = kNone;
        bool same_prefix = true;
        std::uint64_t i = 0;
        for (; i < depth; ++i) {
            std::uint64_t pc;
            if (!r.varint(pc)) {
                previous_pcs_.resize(std::min<std::size_t>(previous_pcs_.size(), i));
                previous_nodes_.resize(previous_pcs_.size());
                throw Truncated{};
            }
            same_prefix = same_prefix && i < previous_pcs_.size() && previous_pcs_[i] == pc;
            if (same_prefix) {
                node = previous_nodes_[i];
                continue;
            }
            const std::uint32_t loc = frame_location(pc);
            if (loc != kNone) { // else the runtime's thread start wrapper: no frame
                const auto [id, inserted] =
                    contexts_.try_emplace((std::uint64_t{node} << 32) | loc,
                                          static_cast<std::uint32_t>(trace_.contexts.size()));
                if (inserted) trace_.contexts.push_back(ContextFrame{node, loc});
                node = id;
            }
            if (i < previous_pcs_.size()) {
                previous_pcs_[i] = pc;
                previous_nodes_[i] = node;
            } else {
                previous_pcs_.push_back(pc);
                previous_nodes_.push_back(node);
            }
        }
        previous_pcs_.resize(depth);
        previous_nodes_.resize(depth);
        return node;
    }

    std::uint64_t need(ByteReader& r) {
        std::uint64_t v;
        if (!r.varint(v)) throw Truncated{};
        return v;
    }
    std::uint8_t need_byte(ByteReader& r) {
        std::uint8_t v;
        if (!r.byte(v)) throw Truncated{};
        return v;
    }

    RawProcess& current(const std::string& file, std::size_t at) {
        if (current_ == kNone)
            throw InputError(file, 0,
                             "event record before any process record (offset " +
                                 std::to_string(at) + ")");
        return processes_[current_];
    }

    // Parses one record; events are only committed once the whole record was read.
    bool record(ByteReader& r, const std::string& file) {
        const std::size_t at = r.pos();
        const std::uint8_t type = need_byte(r);
        switch (type) {
        case fmt::kRecProcess: {
            const std::uint64_t pid = need(r);
            const std::uint64_t parent = need(r);
            const std::uint8_t kind = need_byte(r);
            need(r); // os tid
            if (kind > fmt::kProcChunk)
                throw InputError(file, 0,
                                 "unknown process kind " + std::to_string(kind) +
                                     " at record offset " + std::to_string(at));
            const std::uint32_t index = process_index(pid, file);
            RawProcess& p = processes_[index];
            // Every process is declared once, by the stream that starts it: a second
            // declaration means a copied or conflicting stream (issue 13).
            if (p.declared)
                throw InputError(file, 0,
                                 "process " + std::to_string(pid) +
                                     " is declared a second time (a duplicated or conflicting "
                                     "stream file)");
            p.declared = true;
            if (parent != 0 || p.wire_parent == kNoWireId)
                p.wire_parent = parent == 0 ? kNoWireId : parent - 1;
            p.kind = kind;
            current_ = index;
            runs_here(p);
            return true;
        }
        case fmt::kRecSwitch: {
            const std::uint64_t pid = need(r);
            current_ = process_index(pid, file);
            runs_here(processes_[current_]);
            return true;
        }
        case fmt::kRecOsThread: {
            OsThread thread;
            thread.tid = need(r);
            thread.stack.lo = need(r);
            thread.stack.hi = need(r);
            thread.tls.lo = need(r);
            thread.tls.hi = need(r);
            if (thread.stack.lo > thread.stack.hi || thread.tls.lo > thread.tls.hi)
                throw InputError(file, 0,
                                 "malformed OS thread record at offset " + std::to_string(at));
            stream_os_thread_[stream_] = static_cast<std::uint32_t>(trace_.os_threads.size());
            trace_.os_threads.push_back(thread);
            return true;
        }
        case fmt::kRecTaskBlock: {
            const std::uint64_t pid = need(r);
            const std::uint64_t lo = need(r);
            const std::uint64_t hi = need(r);
            if (lo > hi)
                throw InputError(file, 0,
                                 "malformed task block record at offset " + std::to_string(at));
            task_blocks_.push_back({process_index(pid, file), lo, hi});
            return true;
        }
        case fmt::kRecPrivate: {
            const std::uint64_t pid = need(r);
            const std::uint64_t below = need(r);
            process(pid, file).private_below = below;
            return true;
        }
        case fmt::kRecStack: {
            const std::uint64_t id = need(r);
            const std::uint32_t node = context(r);
            if (id == 0 || id > (1u << 24))
                throw InputError(file, 0, "bad stack id at record offset " + std::to_string(at));
            if (id >= stack_contexts_.size()) stack_contexts_.resize(id + 1, kNone);
            stack_contexts_[id] = node;
            return true;
        }
        case fmt::kRecCompute:
        case fmt::kRecComputeStacks: {
            current(file, at);
            Event e;
            e.kind = EventKind::Computation;
            e.clock_start = need(r);
            e.clock_finish = e.clock_start + need(r);
            e.context = context(r);
            const std::uint64_t nsites = need(r);
            const std::size_t sites_before = read_.sites.size();
            const std::size_t ranges_before = read_.ranges.size();
            try {
                e.first_site = static_cast<std::uint32_t>(sites_before);
                for (std::uint64_t i = 0; i < nsites; ++i) {
                    RecentSite s;
                    s.pc = need(r);
                    if (type == fmt::kRecComputeStacks) {
                        const std::uint64_t stack = need(r);
                        // An id whose record was lost (never written) leaves the site without
                        // a stack.
                        s.context = stack < stack_contexts_.size() ? stack_contexts_[stack] : kNone;
                    }
                    s.flags = need_byte(r);
                    if (s.flags == 0 || s.flags > 7)
                        throw InputError(file, 0,
                                         "bad access flags at record offset " + std::to_string(at));
                    // A loop's events repeat the sites of the one before, position by position:
                    // such a site's point needs no location or point lookup (site_table.hpp).
                    if (i >= recent_sites_.size()) recent_sites_.resize(i + 1);
                    RecentSite& recent = recent_sites_[i];
                    if (recent.pc == s.pc && recent.context == s.context &&
                        recent.flags == s.flags) {
                        s.point = recent.point;
                    } else {
                        s.point = read_.sites.intern({location(s.pc), s.context, s.flags});
                        recent = s;
                    }
                    const std::uint64_t n = need(r);
                    const auto first_range = static_cast<std::uint32_t>(read_.ranges.size());
                    std::uint64_t prev = 0;
                    for (std::uint64_t j = 0; j < n; ++j) {
                        const std::uint64_t lo = prev + need(r);
                        const std::uint64_t len = need(r);
                        if (len == 0 || (j > 0 && lo < prev) || lo + len < lo)
                            throw InputError(
                                file, 0, "malformed ranges at record offset " + std::to_string(at));
                        read_.ranges.push_back({lo, lo + len});
                        prev = lo + len;
                    }
                    read_.sites.push_back(s.point, first_range, static_cast<std::uint32_t>(n));
                }
            } catch (const Truncated&) {
                read_.sites.truncate(sites_before);
                read_.ranges.truncate(ranges_before);
                throw;
            }
            e.site_count = static_cast<std::uint32_t>(nsites);
            // The same accesses as a recent event (a loop between synchronization operations):
            // share that event's run (trace_site_runs.hpp).
            if (const std::uint32_t same = site_runs_.find_equal(read_, e.first_site);
                same != kNone) {
                read_.sites.truncate(sites_before);
                read_.ranges.truncate(ranges_before);
                e.first_site = same;
            }
            processes_[current_].events.push_back(e);
            return true;
        }
        case fmt::kRecSync: {
            current(file, at);
            const std::uint8_t op = need_byte(r);
            const std::uint8_t cls = need_byte(r);
            const std::uint64_t obj = need(r);
            const std::uint64_t incarnation = need(r);
            Event e;
            e.counter = need(r);
            e.clock_start = need(r);
            e.clock_finish = e.clock_start + need(r);
            const std::uint64_t pc = need(r);
            e.context = context(r);
            const std::int64_t extra = fmt::unzigzag(need(r));
            e.location = location(pc);
            switch (op) {
            case fmt::kOpFork:
                e.kind = EventKind::Fork;
                break;
            case fmt::kOpJoin:
                e.kind = EventKind::Join;
                break;
            case fmt::kOpAcquire:
                e.kind = reuse_starts_lifetime(cls, obj, extra, e.clock_start) ? EventKind::Other
                                                                               : EventKind::Acquire;
                break;
            case fmt::kOpRelease:
                e.kind = EventKind::Release;
                break;
            case fmt::kOpSemPost:
                e.kind = EventKind::SemPost;
                break;
            case fmt::kOpSemWait:
                e.kind = EventKind::SemWait;
                break;
            case fmt::kOpBarrierArrive:
                e.kind = EventKind::BarrierArrive;
                break;
            case fmt::kOpBarrierDepart:
                e.kind = EventKind::BarrierDepart;
                break;
            case fmt::kOpCondSignal:
                e.kind = EventKind::CondSignal;
                break;
            case fmt::kOpCondWait:
                e.kind = EventKind::CondWait;
                break;
            case fmt::kOpOther:
                e.kind = EventKind::Other;
                storage_block_read(cls, obj, extra, e.clock_start);
                break;
            default:
                throw InputError(file, 0,
                                 "unknown synchronization operation " + std::to_string(op) +
                                     " at record offset " + std::to_string(at));
            }
            if (e.kind == EventKind::Fork || e.kind == EventKind::Join) {
                if (cls != fmt::kObjThread)
                    throw InputError(file, 0, "fork/join on a non-thread object");
                e.object = process_index(obj, file); // the child exists even if it wrote nothing
                RawProcess& child = processes_[e.object];
                if (e.kind == EventKind::Fork) {
                    if (child.wire_parent == kNoWireId)
                        child.wire_parent = processes_[current_].wire_id;
                    child.fork_process = current_;
                    child.fork_index =
                        static_cast<std::uint32_t>(processes_[current_].events.size());
                }
            } else if (e.kind == EventKind::Other && cls == fmt::kObjHeapBlock) {
                e.object = object(cls, 0, incarnation, 0, file); // the free's, named by it
            } else if (e.kind == EventKind::Other &&
                       (cls == fmt::kObjThreadStorage || cls == fmt::kObjMapping)) {
                e.object = object(cls, obj, incarnation, 0, file); // the block, size aside
            } else {
                e.object = object(cls, obj, incarnation, extra, file);
            }
            processes_[current_].events.push_back(e);
            return true;
        }
        case fmt::kRecName: {
            const std::uint64_t pid = need(r);
            const std::uint64_t n = need(r);
            if (n > 256)
                throw InputError(file, 0, "malformed name record at offset " + std::to_string(at));
            std::string name;
            for (std::uint64_t i = 0; i < n; ++i)
                name += static_cast<char>(need_byte(r));
            process(pid, file).name = name;
            return true;
        }
        case fmt::kRecAlloc: {
            RawProcess& p = current(file, at);
            HeapBlock b;
            const std::uint64_t address = need(r);
            const std::uint64_t size = need(r);
            const std::uint64_t pc = need(r);
            b.context = context(r);
            b.range = {address, address + size};
            b.process = current_;
            b.event = static_cast<std::uint32_t>(p.events.size());
            b.location = location(pc);
            trace_.heap_blocks.push_back(b);
            return true;
        }
        case fmt::kRecMisuse: {
            RawProcess& p = current(file, at);
            const std::uint8_t kind = need_byte(r);
            const std::uint8_t cls = need_byte(r);
            const std::uint64_t address = need(r);
            const std::uint64_t pc = need(r);
            Misuse m;
            m.context = context(r);
            switch (kind) {
            case fmt::kMisuseInitWaiters:
                m.kind = MisuseKind::InitWithWaiters;
                break;
            case fmt::kMisuseDestroyWaiters:
                m.kind = MisuseKind::DestroyWithWaiters;
                break;
            case fmt::kMisuseFreeWaiters:
                m.kind = MisuseKind::FreeWithWaiters;
                break;
            default:
                throw InputError(file, 0,
                                 "unknown misuse kind " + std::to_string(kind) +
                                     " at record offset " + std::to_string(at));
            }
            m.object =
                std::string(cls == fmt::kObjBarrier ? "barrier" : "object") + "@" + hex(address);
            m.process = current_;
            m.event = static_cast<std::uint32_t>(p.events.size());
            m.location = location(pc);
            trace_.misuses.push_back(std::move(m));
            return true;
        }
        case fmt::kRecBenign: {
            const std::uint64_t address = need(r);
            const std::uint64_t size = need(r);
            if (address + size > address) benign_.push_back({address, address + size});
            return true;
        }
        case fmt::kRecEnd: {
            current(file, at);
            need(r);
            processes_[current_].ended = true;
            return true;
        }
        default:
            throw InputError(file, 0,
                             "unknown record type " + std::to_string(type) + " at record offset " +
                                 std::to_string(at));
        }
    }

    struct TaskBlock {
        std::uint32_t pid;
        std::uint64_t lo, hi;
    };
    static constexpr std::uint64_t kTaskBlockSpace = 1ull << 63;
    static constexpr std::uint64_t kTaskFrameSpace = 1ull << 62;
    static constexpr std::uint64_t kFrameSpan = 1ull << 27; // deepest frame offset moved

    void relocate(Event& e, const TaskBlock& b, std::uint64_t base) {
        if (e.kind != EventKind::Computation) return;
        for (std::uint32_t s = e.first_site; s < e.first_site + e.site_count; ++s) {
            const AccessSite site = site_of(s);
            bool touched = false;
            for (std::uint32_t r = site.first_range; r < site.first_range + site.range_count; ++r)
                touched |= trace_.ranges[r].lo < b.hi && b.lo < trace_.ranges[r].hi;
            if (!touched) continue;
            std::vector<Interval>& out = scratch_ranges_;
            out.clear();
            for (std::uint32_t r = site.first_range; r < site.first_range + site.range_count; ++r) {
                const Interval x = trace_.ranges[r];
                if (x.lo < b.lo) out.push_back({x.lo, std::min(x.hi, b.lo)});
                if (x.lo < b.hi && b.lo < x.hi)
                    out.push_back({base + (std::max(x.lo, b.lo) - b.lo),
                                   base + (std::min(x.hi, b.hi) - b.lo)});
                if (x.hi > b.hi) out.push_back({std::max(x.lo, b.hi), x.hi});
            }
            sort_and_merge(out);
            replace_ranges(s, site, out);
        }
    }

    // A site's new ranges ascending, overlapping or adjacent ones merged (in place).
    static void sort_and_merge(std::vector<Interval>& out) {
        std::sort(out.begin(), out.end(),
                  [](const Interval& x, const Interval& y) { return x.lo < y.lo; });
        std::size_t kept = 0;
        for (const Interval& x : out) {
            if (kept > 0 && x.lo <= out[kept - 1].hi)
                out[kept - 1].hi = std::max(out[kept - 1].hi, x.hi);
            else
                out[kept++] = x;
        }
        out.resize(kept);
    }

    // Gives site s (now `site`) the ranges `ranges`: where its own were when they are no fewer
    // (a relocation moves each range, and splits one only where it straddles a block's
    // border), else at the end of Trace::ranges (compact_ranges drops what is left unused).
    void replace_ranges(std::uint32_t s, const AccessSite& site,
                        const std::vector<Interval>& ranges) {
        Relocated moved{site.first_range, static_cast<std::uint32_t>(ranges.size())};
        if (ranges.size() > site.range_count)
            moved.first = static_cast<std::uint32_t>(trace_.ranges.size());
        for (std::size_t k = 0; k < ranges.size(); ++k) {
            if (moved.first + k < trace_.ranges.size())
                trace_.ranges.set(moved.first + k, ranges[k]);
            else
                trace_.ranges.push_back(ranges[k]);
        }
        const auto [k, inserted] =
            relocated_site_.try_emplace(s, static_cast<std::uint32_t>(relocated_ranges_.size()));
        if (inserted) {
            relocated_ranges_.push_back(moved);
            relocated_order_.push_back(s);
        } else
            relocated_ranges_[k] = moved;
    }

    // A process with records in this stream runs on its OS thread.
    void runs_here(RawProcess& p) const {
        if (p.stream == kNone)
            p.stream = stream_;
        else if (p.stream != stream_)
            p.stream = kMany;
    }

    Trace& trace_;
    Symbolizer& symbolizer_;
    std::vector<RawProcess> processes_;
    std::vector<std::int64_t> object_extra_; // per object: barrier count (from its first record)
    std::vector<std::uint8_t> object_class_; // per object read: its wire class
    std::vector<Interval> benign_;
    std::uint32_t current_ = kNone;
    std::uint32_t stream_ = kNone; // the stream being read
    std::vector<TaskBlock> task_blocks_;
    // Reuses of freed memory by another process (reuse_starts_lifetime), and the process and
    // event of the last one's Acquire.
    std::vector<LifetimeStart> lifetime_starts_;
    std::uint32_t lifetime_process_ = kNone, lifetime_event_ = kNone;
    // Per start (LifetimeStart::tag): the process and the indices of its Acquires (made Other
    // events), which keep_ordering makes Acquires again.
    struct LifetimeAcquires {
        std::uint32_t process, first, last;
    };
    std::vector<LifetimeAcquires> lifetime_acquires_;
    // Threads started on cached stack blocks (storage_block_read): the lifetime start, the
    // process, the index of its Acquire of the earlier thread's end, the stream.
    struct StorageStart {
        LifetimeStart start;
        std::uint32_t process, acquire, stream;
    };
    std::vector<StorageStart> storage_starts_;
    std::vector<Interval> scratch_ranges_; // relocations: a site's new ranges
    // The access sites and ranges while the streams are read, moved to Trace::sites and
    // ::ranges once they are (finish): grown in place, never copied (mapped_array.hpp).
    struct SiteStore {
        SiteTable sites;
        RangeTable ranges;
    } read_;
    // Sites whose ranges a relocation replaced, until compact_ranges writes the range array in
    // site order again (the site table derives a site's range count from where the next site's
    // ranges start, which a relocation does not move): site -> relocated_ranges_ index.
    using Relocated = RangeSpan;
    FlatIdMap relocated_site_;
    std::vector<Relocated> relocated_ranges_;
    std::vector<std::uint32_t> relocated_order_; // the sites in relocated_site_
    // The ranges before any relocation appended to Trace::ranges (compact_ranges).
    std::size_t original_ranges_ = 0;
    // The sites of the last computation event read, by position, with their access points.
    struct RecentSite {
        std::uint64_t pc = 0;
        std::uint32_t context = kNone;
        std::uint8_t flags = 0; // 0: no site yet (a read site's flags are 1-7)
        std::uint32_t point = 0;
    };
    std::vector<RecentSite> recent_sites_;
    SiteRuns site_runs_;                          // runs of sites shared by events
    FlatIdMap process_ids_;                       // the tracer's process id -> processes_ index
    std::vector<std::uint32_t> stream_os_thread_; // stream -> Trace::os_threads index
    FlatIdMap locations_;                         // pc -> Trace::locations index
    FlatIdMap frame_locations_; // pc -> location, kNone in the runtime (context frames)
    std::map<std::tuple<std::uint8_t, std::uint64_t, std::uint64_t>, std::uint32_t> objects_;
    FlatIdMap contexts_; // (parent node << 32 | location) -> Trace::contexts index
    // The stream's previous calling context: its pcs, outermost first, and the node after each.
    std::vector<std::uint64_t> previous_pcs_;
    std::vector<std::uint32_t> previous_nodes_;
    std::vector<std::uint32_t> stack_contexts_; // stack depot id of the stream -> context node
};

// The consistent cut of a truncated trace. When a program ends without its threads finishing
// (exit() from another thread, _exit, a fatal signal) or is killed, each stream ends at its
// last complete record, but an operation in flight is lost: a counter taken, its record never
// written (release_op takes the counter before the real unlock and writes after it). Under
// SIGKILL a stream loses everything after its last flushed chunk. The other streams go on and
// pair their acquires with the wrong releases: a lock acquired after a lost unlock would be
// ordered after an earlier holder only, and the critical sections in between look unordered.
//
// Every counter value of an object belongs to one operation, so a lost operation leaves a gap
// in the object's counters. The cut keeps, of every process, the longest prefix in which no
// event depends on a lost operation:
//   - an Acquire with a counter above a gap of its object (it may have paired with the lost
//     release);
//   - a semaphore wait paired with a post beyond the first gap of the posts, or after a gap
//     of the waits (pairs are by position);
//   - a barrier departure of an episode that lacks arrivals.
// Dropping a suffix loses more counters, so this repeats until nothing changes. A thread whose
// creating Fork is not kept was created after everything kept of its parent (a process's
// events are a prefix of what it did): the cut gives the parent that Fork as its last event. What
// is kept is a consistent global state: everything kept happened after only kept events of other
// processes it synchronized with. Counters can also be skipped for good (a failed unlock):
// in a truncated trace that only cuts more than needed.
TraceBuilder::CutSummary TraceBuilder::cut_consistently() {
    const std::size_t n = processes_.size();
    std::vector<std::size_t> keep(n);
    for (std::size_t p = 0; p < n; ++p)
        keep[p] = processes_[p].events.size();
    struct Op {
        std::uint32_t object;
        std::uint64_t counter;
        EventKind kind;
        std::uint32_t process;
        std::uint32_t index;
    };
    auto cut = [&](std::uint32_t p, std::size_t i, bool& changed) {
        if (i < keep[p]) {
            keep[p] = i;
            changed = true;
        }
    };
    // the smallest value missing from a sorted list (counters of one object, one domain)
    auto first_gap = [](const std::vector<std::uint64_t>& sorted) {
        std::uint64_t expect = 0;
        for (std::uint64_t c : sorted) {
            if (c > expect) return expect;
            if (c == expect) ++expect;
        }
        return expect;
    };
    for (bool changed = true; changed;) {
        changed = false;
        std::vector<Op> ops;
        for (std::uint32_t p = 0; p < n; ++p)
            for (std::uint32_t i = 0; i < keep[p]; ++i) {
                const Event& e = processes_[p].events[i];
                switch (e.kind) {
                case EventKind::Acquire:
                case EventKind::Release:
                case EventKind::SemPost:
                case EventKind::SemWait:
                case EventKind::BarrierArrive:
                case EventKind::BarrierDepart:
                    ops.push_back({e.object, e.counter, e.kind, p, i});
                    break;
                default:
                    break;
                }
            }
        std::sort(ops.begin(), ops.end(), [](const Op& a, const Op& b) {
            return std::tie(a.object, a.counter) < std::tie(b.object, b.counter);
        });
        for (std::size_t a = 0; a < ops.size();) {
            std::size_t b = a;
            while (b < ops.size() && ops[b].object == ops[a].object)
                ++b;
            const std::uint32_t object = ops[a].object;
            const SyncObject& obj = trace_.objects[object];
            if (obj.kind == SyncObjectKind::Semaphore) {
                std::vector<std::uint64_t> posts, waits;
                for (std::size_t k = a; k < b; ++k)
                    (ops[k].kind == EventKind::SemPost ? posts : waits).push_back(ops[k].counter);
                const std::uint64_t post_gap = first_gap(posts);
                const std::uint64_t wait_gap = first_gap(waits);
                for (std::size_t k = a; k < b; ++k) {
                    if (ops[k].kind != EventKind::SemWait) continue;
                    const auto post = static_cast<std::int64_t>(ops[k].counter) - obj.initial_value;
                    if (ops[k].counter > wait_gap ||
                        (post >= 0 && static_cast<std::uint64_t>(post) >= post_gap))
                        cut(ops[k].process, ops[k].index, changed);
                }
            } else if (obj.kind == SyncObjectKind::Barrier) {
                std::map<std::uint64_t, std::int64_t> arrivals;
                for (std::size_t k = a; k < b; ++k)
                    if (ops[k].kind == EventKind::BarrierArrive) ++arrivals[ops[k].counter];
                const std::int64_t count = object_extra_[object];
                for (std::size_t k = a; k < b; ++k)
                    if (ops[k].kind == EventKind::BarrierDepart && count > 0 &&
                        arrivals[ops[k].counter] < count)
                        cut(ops[k].process, ops[k].index, changed);
            } else {
                std::vector<std::uint64_t> counters;
                for (std::size_t k = a; k < b; ++k)
                    counters.push_back(ops[k].counter);
                const std::uint64_t gap = first_gap(counters);
                for (std::size_t k = a; k < b; ++k)
                    if (ops[k].kind == EventKind::Acquire && ops[k].counter > gap)
                        cut(ops[k].process, ops[k].index, changed);
            }
            a = b;
        }
    }
    CutSummary summary;
    std::vector<bool> forked(n, false);
    for (std::uint32_t p = 0; p < n; ++p) {
        auto& events = processes_[p].events;
        if (keep[p] != events.size()) {
            summary.events += events.size() - keep[p];
            summary.processes.push_back(p);
            events.truncate(keep[p]);
        }
        for (const Event& e : events)
            if (e.kind == EventKind::Fork && e.object < n) forked[e.object] = true;
    }
    for (std::uint32_t c = 0; c < n; ++c) {
        const std::uint32_t parent = processes_[c].parent;
        if (processes_[c].kind != 0 || parent >= n || forked[c]) continue;
        auto& events = processes_[parent].events;
        Event fork;
        fork.kind = EventKind::Fork;
        fork.object = c;
        if (!events.empty()) fork.clock_start = fork.clock_finish = events.back().clock_finish;
        events.push_back(fork);
        ++summary.forks_added;
    }
    std::erase_if(trace_.heap_blocks,
                  [&](const HeapBlock& b) { return b.process < n && b.event > keep[b.process]; });
    std::erase_if(trace_.misuses,
                  [&](const Misuse& m) { return m.process < n && m.event > keep[m.process]; });
    return summary;
}

std::string list_pids(const std::vector<std::uint32_t>& pids) {
    std::string out;
    for (std::size_t i = 0; i < pids.size() && i < 8; ++i)
        out += (i ? ", " : "") + std::to_string(pids[i]);
    if (pids.size() > 8) out += ", ...";
    return out;
}

} // namespace

Trace read_firstrace_trace(const std::string& directory, const ProgressCallback& progress) {
    const fs::path dir(directory);
    const TraceMetadata meta = read_trace_metadata(directory);

    std::vector<std::pair<std::uint64_t, fs::path>> streams;
    std::map<std::uint64_t, std::string> stream_names; // number -> file name
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        const std::string prefix = fmt::kStreamPrefix, suffix = fmt::kStreamSuffix;
        if (name.size() <= prefix.size() + suffix.size() ||
            name.compare(0, prefix.size(), prefix) != 0 ||
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const std::string number =
            name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
        if (number.find_first_not_of("0123456789") != std::string::npos) continue;
        std::uint64_t n = 0;
        const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), n);
        if (error != std::errc() || end != number.data() + number.size())
            throw InputError(entry.path().string(), 0, "stream number out of range");
        // The tracer names each stream once: stream-1.frc next to stream-01.frc is a copy.
        if (const auto [it, inserted] = stream_names.emplace(n, name); !inserted)
            throw InputError(entry.path().string(), 0,
                             "a second file for stream " + std::to_string(n) + " (besides " +
                                 it->second + "): a duplicated stream");
        streams.emplace_back(n, entry.path());
    }
    std::sort(streams.begin(), streams.end());
    if (streams.empty() && !meta.instrumented)
        throw InputError(directory, 0,
                         meta.instrumented
                             ? "the trace has no event streams (the program wrote nothing)"
                             : "the trace has no event streams: the program showed no "
                               "instrumentation (build it with firstrace-cc / firstrace-c++)");

    Trace trace;
    trace.path = directory;
    trace.format = "firstrace";
    trace.has_clock = true;
    ReusedSymbolizer symbolizer(meta.modules);
    TraceBuilder builder(trace, symbolizer.symbolizer());
    std::uint64_t stream_bytes = 0;
    std::vector<std::uint64_t> stream_sizes;
    for (const auto& [number, path] : streams) {
        std::error_code unreadable; // refused with a message when the stream is read
        const std::uintmax_t size = fs::file_size(path, unreadable);
        stream_sizes.push_back(unreadable ? 0 : size);
        stream_bytes += stream_sizes.back();
    }
    builder.limit_processes(stream_bytes);
    std::vector<std::string> cut;
    std::uint64_t read_bytes = 0; // of the streams before the one being read
    for (std::size_t s = 0; s < streams.size(); ++s) {
        const auto report = [&](std::uint64_t offset) {
            if (progress)
                progress("reading trace", static_cast<double>(read_bytes + offset) /
                                              static_cast<double>(std::max<std::uint64_t>(
                                                  stream_bytes, read_bytes + offset)));
        };
        if (!builder.read_stream(streams[s].second, report))
            cut.push_back(streams[s].second.filename().string());
        read_bytes += stream_sizes[s];
    }
    builder.renumber_processes();
    const auto unfinished = builder.unfinished(meta.not_started);
    // Threads still running at the end were flushed by the ending thread (finalize): one that
    // did not answer in time keeps only its committed records, so the streams are cut at a
    // consistent point whenever any thread was running (a no-op when nothing was lost).
    const bool incomplete = meta.write_error_stream.has_value() || !meta.ended ||
                            meta.end_how == "signal" || !unfinished.empty() || !cut.empty() ||
                            meta.end_running > 0;
    const TraceBuilder::CutSummary dropped =
        incomplete ? builder.cut_consistently() : TraceBuilder::CutSummary{};
    builder.finish(progress);
    trace.data_symbols = symbolizer.data_symbols();
    trace.data_types = symbolizer.data_types();

    // Why is the trace incomplete, if it is?
    std::string reason;
    if (meta.write_error_stream) {
        // Said first: it is why a stream ends early, whatever else happened (issue 13).
        reason = "the tracer could not write " + std::string(fmt::kStreamPrefix) +
                 std::to_string(*meta.write_error_stream) + fmt::kStreamSuffix + " (" +
                 std::strerror(meta.write_error_errno) + "); it holds what was written before";
    } else if (!meta.ended) {
        reason = "the program did not finish writing the trace";
        if (meta.status_how == "signal")
            reason += ": killed by " + signal_name(meta.status_value);
        else if (meta.status_how == "exit")
            reason += " (exit status " + std::to_string(meta.status_value) + ")";
        else
            reason += " (killed, or still running)";
    } else if (meta.end_how == "signal") {
        reason = "the program was killed by " + signal_name(meta.end_value);
    }
    if (reason.empty() && !unfinished.empty()) {
        reason = std::to_string(unfinished.size()) + " thread(s) (" + list_pids(unfinished) +
                 ") were still running when the program ended";
        if (meta.end_how == "_exit")
            reason += " with _exit(" + std::to_string(meta.end_value) + ")";
    }
    if (reason.empty() && !cut.empty())
        reason = "stream " + cut.front() + " ends inside a chunk or record";
    if (reason.empty() && dropped.events != 0)
        reason = std::to_string(meta.end_running) +
                 " thread(s) were still running when the program ended and lost records";
    if (!reason.empty() && dropped.events != 0)
        reason += "; cut at a consistent point: " + std::to_string(dropped.events) +
                  " event(s) of thread(s) " + list_pids(dropped.processes) +
                  " dropped (they follow synchronization whose other side the trace lost)";
    if (!reason.empty()) {
        trace.truncated = true;
        trace.truncation_reason = reason;
    }
    trace.metadata = meta;
    return trace;
}

} // namespace firstrace
