// The tracer's binary trace format (version 1), shared by the runtime (tracer/) and the
// reader (firstrace_trace_reader.cpp). Freestanding: only <cstdint>/<cstring>, no allocation,
// so the runtime can use it from inside a traced program.
//
// A trace is a directory:
//   metadata          text, one `key value...` line each (values percent-escaped):
//                       firstrace-trace <format version>      (first line)
//                       tool-version, program, arg (one per argument), pid, host, start-time
//                       (unix seconds.nanoseconds), clock (monotonic ns at start),
//                       instrumented (an instrumented module called __tsan_init),
//                       module <bias> <lo> <hi> <path>  (hex; PC p of [lo,hi) maps to
//                                                        file address p - bias)
//                       end <how> <value> <live threads>  written when the program ends:
//                         how = exit | _exit | signal ; live threads = still running then
//                       status signal <n> | status exit <n>   added by `firstrace record`
//                       write-error <stream> <errno>  a write of stream-<stream>.frc failed
//                       tsan-default-options, tsan-options, tsan-default-suppressions,
//                       tsan-suppressions <chunk>   the program's ThreadSanitizer settings
//                         (tsan_flags.hpp): each value is the concatenation of its lines'
//                         chunks, in order
//                       tsan-suppressions-file <path>   the suppressions= file read
//                       tsan-suppressions-error <errno> <path>   ... which could not be read
//   stream-<N>.frc    the records of one writer (an OS thread), as a sequence of chunks.
//   fork-<pid>/, exec-<pid>/  the traces of other processes (kForkPrefix, kExecPrefix)
//
// Chunk = ChunkHeader + `compressed_size` bytes of one zstd frame that decompresses to
// `raw_size` bytes. `checksum` is chunk_checksum() over the header (checksum field zero) and
// the payload. The decompressed payloads of one stream, concatenated, are a sequence of
// records; a record may span chunks. A trailing partial chunk or record is a truncation.
//
// Records (integers are LEB128 varints, `s` = zigzag signed varint, `b` = one byte):
//   kRecProcess   pid, parent+1 (0 = none), b kind (ProcessKind), os tid
//                 -- declares a process; following records belong to it
//   kRecSwitch    pid   -- following records belong to process pid
//   kRecCompute   clock_start, clock_finish - clock_start, context, nsites,
//                 nsites x { pc, b flags, nranges, nranges x { lo - previous hi, hi - lo } }
//   kRecSync      b op, b object class, object (address, or child pid for fork/join),
//                 incarnation, counter, clock_start, clock_finish - clock_start, pc,
//                 context, s extra (semaphore initial value, barrier count)
//   kRecEnd       clock   -- the current process finished (thread returned / exited)
//   kRecName      pid, length, bytes   -- the program named process pid (pthread_setname_np)
//   kRecAlloc     address, size, pc, context -- the current process got [address, +size) from
//                 the allocator (malloc, calloc, realloc, aligned variants, operator new)
//   kRecBenign    address, size -- the program declared races on [address, +size) benign
//                 (AnnotateBenignRace(Sized)): accesses to these bytes are not analyzed
//   kRecStack     id, context   -- stack depot entry: the calling context with id `id` (ids are
//                 local to the stream, from 1; 0 means no stack), written before first use
//   kRecComputeStacks  as kRecCompute, with each site's stack id after its pc:
//                 nsites x { pc, stack id, b flags, nranges, ... } -- a site is (pc, stack)
//   kRecOsThread  os tid, stack lo, stack hi, tls lo, tls hi -- the OS thread writing this
//                 stream: its stack and its static TLS blocks (hull), run-time addresses
//   kRecPrivate   pid, below -- stack addresses below `below` on the thread that runs process
//                 pid are frames its task created itself (OMPT exit frame of the task)
//   kRecTaskBlock pid, lo, hi -- [lo, hi) is the block the OpenMP runtime allocated for task pid
//                 (its firstprivate copies; written by the creator just before it forks the
//                 task), or the task's copy of a task reduction item (written by the task);
//                 the runtime reuses it for later tasks
//   kRecMisuse    b kind (MisuseKind), b object class, object address, pc, context -- the current
//                 process misused a synchronization object at pc (POSIX: undefined behaviour,
//                 not a data race): the object's bytes are no access of that call
// context = depth, depth x pc (outermost call site first). pc = a return address.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace firstrace::format {

inline constexpr std::uint32_t kFormatVersion = 1;
inline constexpr char kChunkMagic[4] = {'F', 'R', 'C', 'K'};
inline constexpr const char* kMetadataFile = "metadata";
inline constexpr const char* kStreamPrefix = "stream-";
inline constexpr const char* kStreamSuffix = ".frc";
// The trace of a child process created by fork(): a trace directory of its own, named
// fork-<child pid>, inside its parent's trace directory.
inline constexpr const char* kForkPrefix = "fork-";
// The trace of a program started while the trace directory is already another process's (an
// instrumented program exec'd by a traced one, directly or by a fork child, posix_spawn,
// system, popen): a trace directory of its own, named exec-<pid>, inside the one it was given
// (nested again, exec-<pid>/exec-<pid>, when that one is taken too: an exec chain).
inline constexpr const char* kExecPrefix = "exec-";

struct ChunkHeader {
    char magic[4];
    std::uint16_t format_version;
    std::uint16_t header_size;
    std::uint32_t sequence;
    std::uint32_t compressed_size;
    std::uint32_t raw_size;
    std::uint32_t reserved;
    std::uint64_t checksum;
};
static_assert(sizeof(ChunkHeader) == 32);

// Upper bounds the reader enforces (a corrupt length must not allocate gigabytes).
inline constexpr std::uint32_t kMaxChunkRaw = 16u << 20;

enum RecordType : std::uint8_t {
    kRecProcess = 1,
    kRecSwitch = 2,
    kRecCompute = 3,
    kRecSync = 4,
    kRecEnd = 5,
    kRecName = 6,
    // Reserved so that parallel work merges cleanly; each block is defined (layout documented
    // above) by the work that first writes it.
    kRecStack = 7,         // calling contexts: stack depot entry
    kRecComputeStacks = 9, // computation event whose sites carry stack ids
    // 8 = kRecAlloc (below): a heap block handed out by the allocator.
    // 10-12: OpenMP (below).
    // 13-15: C library / kernel modelling (process tree after fork, signal delivery, ...).
    kRecAlloc = 8,   // address, size, pc, context -- the current process got [address, +size)
    kRecBenign = 13, // address, size -- races on [address, +size) declared benign
    kRecOsThread = 10,
    kRecPrivate = 11,
    kRecTaskBlock = 12,
    kRecMisuse = 14, // b kind, b class, object, pc, context -- misuse of a synchronization object
};

// What a kRecMisuse record says the program did (tracer/src/rt_sync_misuse.cpp).
enum MisuseKind : std::uint8_t {
    kMisuseInitWaiters = 1,    // init of an object that threads are blocked on
    kMisuseDestroyWaiters = 2, // destroy of an object that threads are blocked on
    kMisuseFreeWaiters = 3,    // free / munmap of memory holding an object threads are blocked on
};

// What a process of kRecProcess is (DESIGN "Model": a logical thread of control).
enum ProcessKind : std::uint8_t {
    kProcThread = 0,       // an OS thread (pthread)
    kProcTask = 1,         // an OpenMP explicit task
    kProcImplicitTask = 2, // an OpenMP implicit task (one per thread of a team)
    kProcChunk = 3,        // a chunk of a dynamically scheduled worksharing loop or a section
};

// Synchronization operations on the wire (stable numbers, independent of the model enum).
enum SyncOp : std::uint8_t {
    kOpFork = 1,
    kOpJoin = 2,
    kOpAcquire = 3,
    kOpRelease = 4,
    kOpSemPost = 5,
    kOpSemWait = 6,
    kOpBarrierArrive = 7,
    kOpBarrierDepart = 8,
    kOpCondSignal = 9,
    kOpCondWait = 10,
    kOpOther = 11,
    // 12-15 reserved for OpenMP, 16-19 for the C library / kernel modelling.
};

// Object classes on the wire.
enum ObjectClass : std::uint8_t {
    kObjThread = 0, // fork/join: object = process id
    kObjMutex = 1,
    kObjRwLock = 2,
    kObjSpinLock = 3,
    kObjSemaphore = 4,
    kObjBarrier = 5,
    kObjCondition = 6,
    kObjAtomic = 7,
    kObjHeapBlock = 8,      // malloc/free ordering of a recycled block
    kObjAnnotation = 9,     // __tsan_acquire / __tsan_release
    kObjRwLockReaders = 10, // the read unlocks of a rwlock (the lock itself is kObjRwLock)
    // C library, C++ runtime and kernel (tracer/src/rt_*.cpp; Release/Acquire pairs):
    kObjThreadStorage = 11, // a thread's stack + static TLS (key: its pthread_t, which glibc
                            // places in that block): a thread's end -> the next one's start
    kObjFile = 12,          // an open file description (pipe, socket, eventfd, ...):
                            // write/send -> the read/recv that returns after it
    kObjOnce = 13,          // pthread_once / std::call_once: the init routine -> every return
    kObjFiber = 14,         // a fiber of the TSan fiber API: switch_to_fiber -> the fiber
    kObjSignal = 15,        // a signal number: sends -> sigwait; handler slot: sigaction -> handler
    kObjFutex = 16,         // a futex word (syscall(SYS_futex)): a wake -> a wait after it
    kObjAsyncIo = 17,       // a POSIX AIO control block: submission -> the completion observed
    kObjMapping = 18,       // a new memory mapping (mmap): an Other carrying its range (size in
                            // `extra`) starts a new lifetime of those bytes; no ordering
    kObjIpc = 19,           // a kernel object that many threads release (SysV semaphores and
                            // message queues, a process's children: rt_writer_sets.hpp)
    // Reserved blocks (see RecordType):
    // 11-19: C library, C++ runtime and kernel objects (file descriptors, signals,
    //        function-local statics, custom mutexes and fibers of the TSan annotation API).
    // 20-39: OpenMP objects (below; 25-39 reserved).
    // 40-49: GLib's synchronization (below; 43-49 reserved).
    kObjOmpMutex = 20,    // omp locks, nest locks, critical, ordered, atomic: object = wait id
    kObjOmpBarrier = 21,  // the barriers of one team: object = team id (episode = counter)
    kObjOmpTaskDone = 22, // completion of a task with dependences: object = task pid
    kObjOmpMutexSet = 23, // mutexinoutset dependences: object = address, incarnation = parent
    kObjOmpDoacross = 24, // one iteration of a doacross loop: depend(source) -> depend(sink)
    // 40-49: lifetimes of synchronization objects (tracer/src/rt_sync_misuse.cpp).
    kObjBarrierExits = 40, // the departures of a barrier round that a destroy waited for:
                           // each departure Acquire+Release (a chain), the destroy Acquire
    // 50-59: GLib objects (tracer/src/rt_glib.cpp), named by ids, not program memory:
    kObjGLibBitLock = 50,  // g_bit_lock / g_pointer_bit_lock: object = (address << 6) | bit
    kObjGLibPoolTask = 51, // g_thread_pool_push -> the task's run: object = id of (pool, data)
    kObjGLibPoolDone = 52, // a pool's task ends -> g_thread_pool_free(..., wait_): id of the pool
};

// Access-site flags on the wire: the model's AccessFlags values.
enum AccessBits : std::uint8_t { kRead = 1, kWrite = 2, kAtomic = 4 };

// 64-bit checksum: 8 bytes at a time, multiply-xorshift mixing.
inline std::uint64_t checksum_update(std::uint64_t h, const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    constexpr std::uint64_t k = 0x9E3779B97F4A7C15ull;
    while (n >= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        h = (h ^ w) * k;
        h ^= h >> 29;
        p += 8;
        n -= 8;
    }
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w ^ (static_cast<std::uint64_t>(n) << 56)) * k;
    h ^= h >> 32;
    return h;
}

inline std::uint64_t chunk_checksum(const ChunkHeader& header, const void* payload, std::size_t n) {
    ChunkHeader copy = header;
    copy.checksum = 0;
    std::uint64_t h = checksum_update(0x46495253545241ull, &copy, sizeof copy);
    return checksum_update(h, payload, n);
}

// LEB128 encoding into a buffer with at least 10 bytes free; returns the new end.
inline unsigned char* put_varint(unsigned char* p, std::uint64_t v) {
    while (v >= 0x80) {
        *p++ = static_cast<unsigned char>(v | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<unsigned char>(v);
    return p;
}
inline std::uint64_t zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
inline std::int64_t unzigzag(std::uint64_t v) {
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

// Keys of the metadata file (one `key value...` line each; see the top of this file).
namespace metadata_key {
inline constexpr const char* kHeader = "firstrace-trace";
inline constexpr const char* kToolVersion = "tool-version";
inline constexpr const char* kProgram = "program";
inline constexpr const char* kArg = "arg";
inline constexpr const char* kPid = "pid";
inline constexpr const char* kHost = "host";
inline constexpr const char* kStartTime = "start-time";
inline constexpr const char* kClock = "clock";
inline constexpr const char* kInstrumented = "instrumented";
inline constexpr const char* kModule = "module";
inline constexpr const char* kEnd = "end";
inline constexpr const char* kStatus = "status";
// write-error <stream number> <errno>: the tracer could not write that stream (disk full, I/O
// error); it holds what was written before. Written before `end`.
inline constexpr const char* kWriteError = "write-error";
// not-started <pid>: a thread created (its creator's Fork is in the trace) that had not started
// when the trace ended: it recorded nothing, and its missing end is not a truncation.
inline constexpr const char* kNotStarted = "not-started";
// The program's ThreadSanitizer run-time settings, captured once at start-up
// (tracer/src/rt_tsan_settings.cpp): the string __tsan_default_options() returned, TSAN_OPTIONS,
// the string __tsan_default_suppressions() returned, and the content of the file TSAN_OPTIONS'
// (or the default options') suppressions= names. Each is written as one or more lines of
// percent-escaped chunks (kTsanChunkBytes raw bytes at most), which the reader concatenates.
inline constexpr const char* kTsanDefaultOptions = "tsan-default-options";
inline constexpr const char* kTsanOptions = "tsan-options";
inline constexpr const char* kTsanDefaultSuppressions = "tsan-default-suppressions";
inline constexpr const char* kTsanSuppressions = "tsan-suppressions";
inline constexpr std::size_t kTsanChunkBytes = 1024;
// tsan-suppressions-file <path>: the file read (as resolved: the current directory, else the
// executable's directory); tsan-suppressions-error <errno> <path>: it could not be read.
inline constexpr const char* kTsanSuppressionsFile = "tsan-suppressions-file";
inline constexpr const char* kTsanSuppressionsError = "tsan-suppressions-error";
} // namespace metadata_key

// Percent-escaping of metadata values (space, %, control characters, bytes >= 0x7f).
inline bool needs_escape(unsigned char c) {
    return c <= ' ' || c == '%' || c >= 0x7f;
}

} // namespace firstrace::format
