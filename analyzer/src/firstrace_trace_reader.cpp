// Reader of the tracer's trace directory (format in trace_format.hpp): metadata, then every
// stream's chunks (checked, decompressed, concatenated) parsed into processes, events, access
// sites and synchronization objects; program counters symbolized post-mortem with libdw.
// A trace the program did not finish writing (crash, kill, _exit, threads still running) is
// read up to its last complete chunk and record and flagged `truncated`; corrupt input (bad
// magic, checksum, version, malformed records) is an InputError naming file and offset.
#include <zstd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "firstrace/errors.hpp"
#include "firstrace/trace_loader.hpp"
#include "symbolizer.hpp"
#include <firstrace/trace_format.hpp>

namespace firstrace {
namespace {

namespace fs = std::filesystem;
namespace fmt = firstrace::format;

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string unescape(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 &&
            hex_digit(s[i + 2]) >= 0) {
            out += static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::string hex(std::uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string signal_name(long sig) {
    const char* abbrev = sigabbrev_np(static_cast<int>(sig));
    return "signal " + std::to_string(sig) + (abbrev ? std::string(" (SIG") + abbrev + ")" : "");
}

struct Metadata {
    std::uint32_t version = 0;
    std::string program;
    std::vector<std::string> args;
    bool instrumented = false;
    bool ended = false;
    std::string end_how;
    long end_value = 0;
    long end_running = 0;
    std::string status_how; // from `firstrace record`
    long status_value = 0;
    std::vector<LoadedModule> modules;
};

Metadata read_metadata(const fs::path& dir) {
    const fs::path path = dir / fmt::kMetadataFile;
    std::ifstream in(path);
    if (!in)
        throw InputError(dir.string(), 0,
                         "not a firstrace trace directory (no readable 'metadata' file)");
    Metadata m;
    std::string line;
    std::uint64_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        std::istringstream fields(line);
        std::string key;
        fields >> key;
        if (number == 1) {
            if (key != "firstrace-trace" || !(fields >> m.version))
                throw InputError(path.string(), 1,
                                 "not a firstrace trace (expected 'firstrace-trace VERSION')");
            if (m.version != fmt::kFormatVersion)
                throw InputError(path.string(), 1,
                                 "trace format version " + std::to_string(m.version) +
                                     ", but this firstrace reads version " +
                                     std::to_string(fmt::kFormatVersion) +
                                     " (record the program again with this firstrace)");
            continue;
        }
        if (key == "program") {
            std::string v;
            fields >> v;
            m.program = unescape(v);
        } else if (key == "arg") {
            std::string v;
            fields >> v;
            m.args.push_back(unescape(v));
        } else if (key == "instrumented") {
            m.instrumented = true;
        } else if (key == "module") {
            LoadedModule mod;
            std::string path_field;
            if (!(fields >> std::hex >> mod.bias >> mod.lo >> mod.hi >> path_field))
                throw InputError(path.string(), number, "malformed module line");
            mod.path = unescape(path_field);
            const bool seen =
                std::any_of(m.modules.begin(), m.modules.end(), [&](const LoadedModule& o) {
                    return o.bias == mod.bias && o.path == mod.path;
                });
            if (!seen) m.modules.push_back(mod);
        } else if (key == "end") {
            m.ended = true;
            fields >> m.end_how >> m.end_value >> m.end_running;
        } else if (key == "status") {
            fields >> m.status_how >> m.status_value;
        }
    }
    if (number == 0) throw InputError(path.string(), 0, "empty metadata file");
    return m;
}

class ByteReader {
  public:
    ByteReader(const std::vector<unsigned char>& data, const std::string& file)
        : data_(data), file_(file) {}
    bool at_end() const { return pos_ >= data_.size(); }
    std::size_t pos() const { return pos_; }
    void seek(std::size_t p) { pos_ = p; }
    // Returns false at the end of the data (a truncated record).
    bool varint(std::uint64_t& v) {
        v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos_ >= data_.size()) return false;
            const unsigned char b = data_[pos_++];
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80)) return true;
        }
        throw InputError(file_, 0, "malformed varint at record offset " + std::to_string(pos_));
    }
    bool byte(std::uint8_t& b) {
        if (pos_ >= data_.size()) return false;
        b = data_[pos_++];
        return true;
    }

  private:
    const std::vector<unsigned char>& data_;
    const std::string& file_;
    std::size_t pos_ = 0;
};

struct Truncated {}; // a record ran past the end of the data

struct RawProcess {
    bool declared = false;
    std::string name; // given by the program
    std::uint32_t parent = kNone;
    bool ended = false;
    std::uint8_t kind = fmt::kProcThread;
    // The stream (OS thread) whose records hold the process's events; kMany when a task
    // migrated between threads (untied): then no storage is private to it.
    std::uint32_t stream = kNone;
    std::uint64_t private_below = 0;
    std::vector<Event> events;
};
constexpr std::uint32_t kMany = kNone - 1;

class TraceBuilder {
  public:
    TraceBuilder(Trace& trace, Symbolizer& symbolizer) : trace_(trace), symbolizer_(symbolizer) {}

    // Reads one stream file: chunks, then records. Returns false when it was cut short.
    bool read_stream(const fs::path& path) {
        const std::string file = path.string();
        std::ifstream in(path, std::ios::binary);
        if (!in) throw InputError(file, 0, "cannot open");
        std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
        std::vector<unsigned char> raw;
        bool complete = true;
        std::size_t offset = 0;
        std::uint32_t expected_seq = 0;
        while (offset < bytes.size()) {
            fmt::ChunkHeader h;
            if (bytes.size() - offset < sizeof h) {
                complete = false;
                break;
            }
            std::memcpy(&h, bytes.data() + offset, sizeof h);
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
            if (bytes.size() - offset - sizeof h < h.compressed_size) {
                complete = false; // the program died while writing this chunk
                break;
            }
            const unsigned char* payload = bytes.data() + offset + sizeof h;
            if (fmt::chunk_checksum(h, payload, h.compressed_size) != h.checksum)
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
                ZSTD_decompress(raw.data() + base, h.raw_size, payload, h.compressed_size);
            if (ZSTD_isError(got) || got != h.raw_size)
                throw InputError(
                    file, 0, "chunk at offset " + std::to_string(offset) + " does not decompress");
            offset += sizeof h + h.compressed_size;
        }
        ByteReader r(raw, file);
        current_ = kNone;
        stream_ = static_cast<std::uint32_t>(stream_os_thread_.size());
        stream_os_thread_.push_back(kNone);
        while (!r.at_end()) {
            const std::size_t start = r.pos();
            try {
                if (!record(r, file)) throw Truncated{};
            } catch (const Truncated&) {
                (void)start;
                return false;
            }
        }
        return complete;
    }

    void finish() {
        separate_task_blocks();
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
            p.events = std::move(processes_[pid].events);
            trace_.processes.push_back(std::move(p));
        }
        for (auto& loc : trace_.locations) {
            const std::uint64_t pc = loc.pc;
            loc = symbolizer_.resolve(pc);
        }
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
            const auto fork = fork_sites_.find(b.pid);
            if (fork != fork_sites_.end() && fork->second.second > 0) {
                Event& init = processes_[fork->second.first].events[fork->second.second - 1];
                if (init.kind == EventKind::Computation) relocate(init, b, base);
            }
        }
    }

    std::vector<std::uint32_t> unfinished() const {
        std::vector<std::uint32_t> out;
        // logical processes (OpenMP tasks and chunks) end with their thread, which is checked
        for (std::uint32_t pid = 0; pid < processes_.size(); ++pid)
            if (!processes_[pid].ended && processes_[pid].kind == fmt::kProcThread)
                out.push_back(pid);
        return out;
    }

  private:
    static constexpr std::uint32_t kMaxProcesses = 1u << 22;

    RawProcess& process(std::uint32_t pid, const std::string& file) {
        if (pid >= kMaxProcesses)
            throw InputError(file, 0, "process id " + std::to_string(pid) + " out of range");
        if (pid >= processes_.size()) processes_.resize(pid + 1);
        return processes_[pid];
    }

    std::uint32_t location(std::uint64_t pc) {
        auto [it, inserted] =
            locations_.try_emplace(pc, static_cast<std::uint32_t>(trace_.locations.size()));
        if (inserted) {
            SourceLocation loc;
            loc.pc = pc;
            trace_.locations.push_back(loc);
        }
        return it->second;
    }

    std::uint32_t object(std::uint8_t cls, std::uint64_t address, std::uint64_t incarnation,
                         std::int64_t extra, const std::string& file) {
        const std::tuple<std::uint8_t, std::uint64_t, std::uint64_t> key{cls, address, incarnation};
        auto [it, inserted] =
            objects_.try_emplace(key, static_cast<std::uint32_t>(trace_.objects.size()));
        if (inserted) {
            SyncObject o;
            o.address = address;
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
            default:
                throw InputError(file, 0,
                                 "unknown synchronization object class " + std::to_string(cls));
            }
            o.name = std::string(prefix) + "@" + hex(address);
            if (incarnation > 1) o.name += "#" + std::to_string(incarnation);
            if (cls == fmt::kObjSemaphore) o.initial_value = extra;
            trace_.objects.push_back(o);
        }
        return it->second;
    }

    // Reads `depth, pcs...` and returns the calling-context node of the innermost frame.
    std::uint32_t context(ByteReader& r) {
        std::uint64_t depth;
        if (!r.varint(depth)) throw Truncated{};
        std::uint32_t node = kNone;
        for (std::uint64_t i = 0; i < depth; ++i) {
            std::uint64_t pc;
            if (!r.varint(pc)) throw Truncated{};
            const std::uint32_t loc = location(pc);
            auto [it, inserted] = contexts_.try_emplace(
                {node, loc}, static_cast<std::uint32_t>(trace_.contexts.size()));
            if (inserted) trace_.contexts.push_back(ContextFrame{node, loc});
            node = it->second;
        }
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
            RawProcess& p = process(static_cast<std::uint32_t>(pid), file);
            p.declared = true;
            if (parent != 0 || p.parent == kNone)
                p.parent = parent == 0 ? kNone : static_cast<std::uint32_t>(parent - 1);
            p.kind = kind;
            current_ = static_cast<std::uint32_t>(pid);
            runs_here(p);
            return true;
        }
        case fmt::kRecSwitch: {
            const std::uint64_t pid = need(r);
            runs_here(process(static_cast<std::uint32_t>(pid), file));
            current_ = static_cast<std::uint32_t>(pid);
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
            if (pid >= kMaxProcesses || lo > hi)
                throw InputError(file, 0,
                                 "malformed task block record at offset " + std::to_string(at));
            task_blocks_.push_back({static_cast<std::uint32_t>(pid), lo, hi});
            return true;
        }
        case fmt::kRecPrivate: {
            const std::uint64_t pid = need(r);
            const std::uint64_t below = need(r);
            process(static_cast<std::uint32_t>(pid), file).private_below = below;
            return true;
        }
        case fmt::kRecCompute: {
            current(file, at);
            Event e;
            e.kind = EventKind::Computation;
            e.clock_start = need(r);
            e.clock_finish = e.clock_start + need(r);
            e.context = context(r);
            const std::uint64_t nsites = need(r);
            const std::size_t sites_before = trace_.sites.size();
            const std::size_t ranges_before = trace_.ranges.size();
            try {
                e.first_site = static_cast<std::uint32_t>(sites_before);
                for (std::uint64_t i = 0; i < nsites; ++i) {
                    AccessSite s;
                    s.location = location(need(r));
                    s.flags = need_byte(r);
                    if (s.flags == 0 || s.flags > 7)
                        throw InputError(file, 0,
                                         "bad access flags at record offset " + std::to_string(at));
                    const std::uint64_t n = need(r);
                    s.first_range = static_cast<std::uint32_t>(trace_.ranges.size());
                    s.range_count = static_cast<std::uint32_t>(n);
                    std::uint64_t prev = 0;
                    for (std::uint64_t j = 0; j < n; ++j) {
                        const std::uint64_t lo = prev + need(r);
                        const std::uint64_t len = need(r);
                        if (len == 0 || (j > 0 && lo < prev) || lo + len < lo)
                            throw InputError(
                                file, 0, "malformed ranges at record offset " + std::to_string(at));
                        trace_.ranges.push_back({lo, lo + len});
                        prev = lo + len;
                    }
                    trace_.sites.push_back(s);
                }
            } catch (const Truncated&) {
                trace_.sites.resize(sites_before);
                trace_.ranges.resize(ranges_before);
                throw;
            }
            e.site_count = static_cast<std::uint32_t>(nsites);
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
                e.kind = EventKind::Acquire;
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
                break;
            default:
                throw InputError(file, 0,
                                 "unknown synchronization operation " + std::to_string(op) +
                                     " at record offset " + std::to_string(at));
            }
            if (e.kind == EventKind::Fork || e.kind == EventKind::Join) {
                if (cls != fmt::kObjThread)
                    throw InputError(file, 0, "fork/join on a non-thread object");
                process(static_cast<std::uint32_t>(obj),
                        file); // the child exists even if it wrote nothing
                e.object = static_cast<std::uint32_t>(obj);
                if (e.kind == EventKind::Fork && processes_[e.object].parent == kNone)
                    processes_[e.object].parent = current_;
                if (e.kind == EventKind::Fork)
                    fork_sites_[e.object] = {current_, processes_[current_].events.size()};
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
            process(static_cast<std::uint32_t>(pid), file).name = name;
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

    void relocate(Event& e, const TaskBlock& b, std::uint64_t base) {
        if (e.kind != EventKind::Computation) return;
        for (std::uint32_t s = e.first_site; s < e.first_site + e.site_count; ++s) {
            AccessSite& site = trace_.sites[s];
            bool touched = false;
            for (std::uint32_t r = site.first_range; r < site.first_range + site.range_count; ++r)
                touched |= trace_.ranges[r].lo < b.hi && b.lo < trace_.ranges[r].hi;
            if (!touched) continue;
            std::vector<Interval> out;
            for (std::uint32_t r = site.first_range; r < site.first_range + site.range_count; ++r) {
                const Interval x = trace_.ranges[r];
                if (x.lo < b.lo) out.push_back({x.lo, std::min(x.hi, b.lo)});
                if (x.lo < b.hi && b.lo < x.hi)
                    out.push_back({base + (std::max(x.lo, b.lo) - b.lo),
                                   base + (std::min(x.hi, b.hi) - b.lo)});
                if (x.hi > b.hi) out.push_back({std::max(x.lo, b.hi), x.hi});
            }
            std::sort(out.begin(), out.end(),
                      [](const Interval& x, const Interval& y) { return x.lo < y.lo; });
            std::vector<Interval> merged;
            for (const Interval& x : out) {
                if (!merged.empty() && x.lo <= merged.back().hi)
                    merged.back().hi = std::max(merged.back().hi, x.hi);
                else
                    merged.push_back(x);
            }
            site.first_range = static_cast<std::uint32_t>(trace_.ranges.size());
            site.range_count = static_cast<std::uint32_t>(merged.size());
            trace_.ranges.insert(trace_.ranges.end(), merged.begin(), merged.end());
        }
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
    std::uint32_t current_ = kNone;
    std::uint32_t stream_ = kNone; // the stream being read
    std::vector<TaskBlock> task_blocks_;
    // child pid -> (forking process, index of the Fork event in it)
    std::unordered_map<std::uint32_t, std::pair<std::uint32_t, std::size_t>> fork_sites_;
    std::vector<std::uint32_t> stream_os_thread_; // stream -> Trace::os_threads index
    std::unordered_map<std::uint64_t, std::uint32_t> locations_;
    std::map<std::tuple<std::uint8_t, std::uint64_t, std::uint64_t>, std::uint32_t> objects_;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> contexts_;
};

std::string list_pids(const std::vector<std::uint32_t>& pids) {
    std::string out;
    for (std::size_t i = 0; i < pids.size() && i < 8; ++i)
        out += (i ? ", " : "") + std::to_string(pids[i]);
    if (pids.size() > 8) out += ", ...";
    return out;
}

} // namespace

Trace read_firstrace_trace(const std::string& directory) {
    const fs::path dir(directory);
    const Metadata meta = read_metadata(dir);

    std::vector<std::pair<std::uint64_t, fs::path>> streams;
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
        streams.emplace_back(std::stoull(number), entry.path());
    }
    std::sort(streams.begin(), streams.end());
    if (streams.empty())
        throw InputError(directory, 0,
                         meta.instrumented
                             ? "the trace has no event streams (the program wrote nothing)"
                             : "the trace has no event streams: the program showed no "
                               "instrumentation (build it with firstrace-cc / firstrace-c++)");

    Trace trace;
    trace.path = directory;
    trace.format = "firstrace";
    trace.has_clock = true;
    Symbolizer symbolizer(meta.modules);
    TraceBuilder builder(trace, symbolizer);
    std::vector<std::string> cut;
    for (const auto& [number, path] : streams)
        if (!builder.read_stream(path)) cut.push_back(path.filename().string());
    builder.finish();
    trace.data_symbols = symbolizer.data_symbols();

    // Why is the trace incomplete, if it is?
    std::string reason;
    if (!meta.ended) {
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
    const auto unfinished = builder.unfinished();
    if (reason.empty() && !unfinished.empty()) {
        reason = std::to_string(unfinished.size()) + " thread(s) (" + list_pids(unfinished) +
                 ") were still running when the program ended";
        if (meta.end_how == "_exit")
            reason += " with _exit(" + std::to_string(meta.end_value) + ")";
    }
    if (reason.empty() && !cut.empty())
        reason = "stream " + cut.front() + " ends inside a chunk or record";
    if (!reason.empty()) {
        trace.truncated = true;
        trace.truncation_reason = reason;
    }
    return trace;
}

} // namespace firstrace
