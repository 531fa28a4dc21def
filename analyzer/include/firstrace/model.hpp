// The execution model every trace reader produces and the analysis consumes (DESIGN "Model",
// thesis ch. 3): processes, their events in process order, the access sites of computation
// events, and the synchronization objects with their per-object counters.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "firstrace/interval.hpp"
#include "firstrace/range_table.hpp"
#include "firstrace/site_table.hpp"
#include "firstrace/trace_metadata.hpp"

namespace firstrace {

inline constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// Address keys of byte-addressed traces. Bytes reused by another process after their free are
// a new variable in each lifetime (memory_lifetimes.hpp): the reader moves accesses in a later
// lifetime to the byte's address with the lifetime's number in bits 47..61, above the 47-bit
// user address space. OpenMP task storage moves to bit 62 or 63 (the reader's task spaces).
// program_address() is the byte a key stands for, as reports and the database show it.
inline constexpr unsigned kLifetimeShift = 47;
inline constexpr std::uint64_t kProgramAddressEnd = std::uint64_t{1} << kLifetimeShift;
inline constexpr std::uint64_t program_address(std::uint64_t key) {
    return key >> 62 != 0 ? key : key & (kProgramAddressEnd - 1);
}
// The lifetime a key names (0: the bytes' first; OpenMP task keys: 0).
inline constexpr std::uint64_t lifetime_of(std::uint64_t key) {
    return key >> 62 != 0 ? 0 : key >> kLifetimeShift;
}
inline Interval program_range(const Interval& key) {
    const std::uint64_t lo = program_address(key.lo);
    return {lo, lo + (key.hi - key.lo)};
}

// Bit flags of an access site. An atomic access is part of READ(e) / WRITE(e) like a plain one,
// but two atomic accesses never race (C11/C++11): see apparent_races.hpp for the conflict rules.
enum AccessFlags : std::uint8_t {
    kAccessRead = 1,
    kAccessWrite = 2,
    kAccessAtomic = 4,
};

struct SourceLocation {
    std::string file; // empty when unknown
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::string function; // empty when unknown
    std::uint64_t pc = 0; // 0 for STD traces
    // When this frame is a call inlined into another function: the location of the call in
    // that function (same pc; Trace::locations index), else kNone. Stacks expand through it.
    std::uint32_t inlined_into = kNone;
};

enum class EventKind : std::uint8_t {
    Computation,
    Fork,          // object = child process id
    Join,          // object = joined process id
    Acquire,       // lock / rwlock / spinlock acquire, atomic acquire load, cond-wait re-acquire
    Release,       // lock release, atomic release store, cond-wait release
    SemPost,       // object = semaphore
    SemWait,       // object = semaphore (a completed wait)
    BarrierArrive, // counter = episode number
    BarrierDepart, // counter = episode number
    CondSignal,    // recorded for display; the mutex edges order the rest
    CondWait,
    Other, // any other synchronization operation: splits events, adds no edge
};

const char* to_string(EventKind kind);
inline bool is_computation(EventKind k) {
    return k == EventKind::Computation;
}

struct Event {
    EventKind kind = EventKind::Computation;
    std::uint32_t object = kNone;   // sync object id (or process id for Fork/Join)
    std::uint64_t counter = 0;      // position in the object's order of operations
    std::uint64_t clock_start = 0;  // complete ordering: global clock at event start
    std::uint64_t clock_finish = 0; // ... and at its finish
    std::uint32_t first_site = 0;   // computation events: index into Trace::sites
    std::uint32_t site_count = 0;
    std::uint32_t context = kNone;  // index into Trace::contexts (calling context)
    std::uint32_t location = kNone; // sync events: where the operation was called
};

struct Process {
    std::string name;             // "T1" for STD traces, "thread 3" / "task 12" from the tracer
    std::uint32_t parent = kNone; // creating process, when known
    std::vector<Event> events;    // in process order; an event's index is its position here
    // Where a logical process ran and which storage is its own (DESIGN "Model": storage private
    // to a thread or implicit task is used one process after the other by what that thread
    // runs). os_thread indexes Trace::os_threads (kNone: unknown, e.g. STD traces). Stack
    // addresses below private_below on that thread belong to frames that this process's task
    // created itself (0: none). See Trace::private_to_both.
    std::uint32_t os_thread = kNone;
    std::uint64_t private_below = 0;
};

// An OS thread that ran logical processes: its stack and static TLS block (run-time
// addresses, empty when unknown).
struct OsThread {
    std::uint64_t tid = 0;
    Interval stack;
    Interval tls;
};

// A heap block as the allocator handed it out (one incarnation: the same address can be
// handed out again after a free). Allocated by `process` just before its event `event` (the
// index the next event of that process got), at `location` with calling context `context`.
// `lifetime`: the lifetime of its bytes it was allocated in (lifetime_of the keys of the
// accesses to it; memory_lifetimes.hpp).
struct HeapBlock {
    Interval range;
    std::uint32_t process = kNone;
    std::uint32_t event = kNone;
    std::uint32_t location = kNone;
    std::uint32_t context = kNone;
    std::uint32_t lifetime = 0;
};

enum class SyncObjectKind : std::uint8_t {
    Lock,
    RwLock,
    SpinLock,
    Semaphore,
    Barrier,
    Condition,
    Atomic,
    Other,
};
// The kind's spelling in the results database and JSON ("lock", "rwlock", ..., "other").
const char* to_string(SyncObjectKind kind);

struct SyncObject {
    SyncObjectKind kind = SyncObjectKind::Lock;
    std::string name; // "L1" for STD, "mutex@0x..." from the tracer
    std::uint64_t address = 0;
    std::int64_t initial_value = 0; // semaphores
};

// A calling-context tree node (heaptrack style): frame location plus parent node.
struct ContextFrame {
    std::uint32_t parent = kNone;
    std::uint32_t location = kNone; // index into Trace::locations
};

// A named object of the program's data (a global or static variable from the symbol tables),
// used to describe conflicting addresses: [lo, hi) at run-time addresses. `type` indexes
// Trace::data_types when the debug information gives the variable's type (kNone: unknown).
struct DataSymbol {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
    std::string name;
    std::uint32_t type = kNone;
};

// The layout of a variable's type from DWARF, enough to name the bytes of a conflict by their
// member path and array indices ("ring.slots[3].len"). Typedefs and qualifiers are peeled.
struct DataMember {
    std::string name;           // empty: an anonymous struct/union member or a base class
    std::uint64_t offset = 0;   // bytes from the start of the enclosing object
    std::uint32_t type = kNone; // Trace::data_types index
};
struct DataType {
    enum class Kind : std::uint8_t { Scalar, Record, Array };
    Kind kind = Kind::Scalar;
    std::uint64_t size = 0;          // bytes
    std::vector<DataMember> members; // Record: structs, classes, unions
    std::uint32_t element = kNone;   // Array: the element type
    std::uint64_t count = 0;         // Array: number of elements
};

// The name of bytes [lo, hi) of an object called `name` of `size` bytes and type `type`
// (Trace::data_types index or kNone), offsets from the object's start: the member path and
// array indices of the innermost member or element holding them all ("ring.tail", "buf[3]",
// "pool.jobs[2..5]"), then "+offset (n bytes)" when they are part of it.
std::string describe_within(const std::vector<DataType>& types, std::string name,
                            std::uint32_t type, std::uint64_t lo, std::uint64_t hi,
                            std::uint64_t size);

// A misuse of a synchronization object (tracer kRecMisuse; tracer/src/rt_sync_misuse.hpp):
// POSIX leaves its results undefined, and it is no data race: reports show it apart from races
// and never count it as one.
enum class MisuseKind : std::uint8_t {
    InitWithWaiters,    // init of an object threads are blocked on
    DestroyWithWaiters, // destroy of an object threads are blocked on
    FreeWithWaiters,    // free / munmap of memory holding an object threads are blocked on
};
// "init-with-waiters", "destroy-with-waiters", "free-with-waiters" (JSON).
const char* to_string(MisuseKind kind);
struct Misuse {
    MisuseKind kind = MisuseKind::InitWithWaiters;
    std::uint32_t process = kNone;
    std::uint32_t event = kNone; // the index the process's next event got
    std::string object;          // "barrier@0x..."
    std::uint32_t location = kNone;
    std::uint32_t context = kNone;
};

struct Trace {
    std::string path;                      // what was read, for messages
    std::string format;                    // "std" or "firstrace"
    std::optional<TraceMetadata> metadata; // recorded traces: the trace directory's metadata
    std::vector<Process> processes;
    std::vector<SyncObject> objects;
    SiteTable sites;   // read by value: an AccessSite (site_table.hpp)
    RangeTable ranges; // read by value: an Interval (range_table.hpp)
    std::vector<SourceLocation> locations;
    std::vector<ContextFrame> contexts;
    // Names of "addresses" when the trace has variables rather than bytes (STD): address i is
    // variable_names[i]. Empty for byte-addressed traces.
    std::vector<std::string> variable_names;
    // Byte-addressed traces: the program's data symbols, sorted by address, disjoint.
    std::vector<DataSymbol> data_symbols;
    std::vector<DataType> data_types; // DataSymbol::type and the types they refer to
    // Byte-addressed traces: OS threads (see Process::os_thread) and heap blocks, in the order
    // they were allocated per process.
    std::vector<OsThread> os_threads;
    std::vector<HeapBlock> heap_blocks;
    std::vector<Misuse> misuses; // in the order the reader met them
    bool has_clock = false;      // clock_start/clock_finish are meaningful (complete ordering)
    bool truncated = false;      // the program did not finish writing the trace
    std::string truncation_reason;

    std::size_t event_count() const;
    std::size_t access_count() const; // number of (site, range) pairs
    // Calls f(site index, site, range) for every range of the event's data accesses: what
    // READ(e) and WRITE(e) are made of, atomic accesses included (site.flags tells them apart).
    template <class F> void for_each_data_range(const Event& e, F&& f) const {
        for (std::uint32_t s = e.first_site; s < e.first_site + e.site_count; ++s) {
            const AccessSite site = sites[s];
            if (!(site.flags & (kAccessRead | kAccessWrite))) continue;
            for (std::uint32_t r = site.first_range; r < site.first_range + site.range_count; ++r)
                f(s, site, ranges[r]);
        }
    }
    // True when a conflict of processes p and q on the bytes of `range` is no race because the
    // bytes are storage private to the OS thread both ran on: its static TLS block, or its
    // stack below the frames of both processes' tasks (min of private_below). Such storage is
    // used one process after the other (OpenMP chunks and tasks run by one thread).
    bool private_to_both(std::uint32_t p, std::uint32_t q, const Interval& range) const {
        const Process& a = processes[p];
        const Process& b = processes[q];
        if (a.os_thread == kNone || a.os_thread != b.os_thread) return false;
        const OsThread& t = os_threads[a.os_thread];
        if (range.lo >= t.tls.lo && range.hi <= t.tls.hi && t.tls.lo < t.tls.hi) return true;
        const std::uint64_t below =
            a.private_below < b.private_below ? a.private_below : b.private_below;
        return range.lo >= t.stack.lo && range.hi <= below && range.hi <= t.stack.hi;
    }
    // "V3" for STD variables; for byte ranges "counter" (a whole data symbol), "ring.tail" or
    // "buf[3]" (a member or element, when the symbol's type is known), "queue+8 (4 bytes)"
    // (part of one otherwise), else "0x7ffd1000+8" (address + size).
    std::string describe(const Interval& range) const;
};

} // namespace firstrace
