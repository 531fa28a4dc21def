// The binary trace reader on hand-made trace directories (trace_format.hpp): the model it
// builds, chunk and record boundaries, truncation and corruption.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "firstrace/errors.hpp"
#include "firstrace/trace_loader.hpp"
#include <firstrace/trace_format.hpp>

#include "report_memory_names.hpp"

namespace fs = std::filesystem;
namespace fmt = firstrace::format;
using firstrace::EventKind;

namespace {

// Builds the raw record bytes of one stream.
struct Records {
    std::vector<unsigned char> bytes;
    Records& v(std::uint64_t x) {
        unsigned char buf[10];
        bytes.insert(bytes.end(), buf, fmt::put_varint(buf, x));
        return *this;
    }
    Records& b(std::uint8_t x) {
        bytes.push_back(x);
        return *this;
    }
    Records& process(std::uint32_t pid, std::uint32_t parent_plus_one) {
        return b(fmt::kRecProcess).v(pid).v(parent_plus_one).b(0).v(100 + pid);
    }
    // one site with the given ranges, no context
    Records& compute(std::uint64_t start, std::uint64_t pc, std::uint8_t flags,
                     const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ranges) {
        b(fmt::kRecCompute).v(start).v(5).v(0).v(1).v(pc).b(flags).v(ranges.size());
        std::uint64_t prev = 0;
        for (auto [lo, hi] : ranges) {
            v(lo - prev).v(hi - lo);
            prev = hi;
        }
        return *this;
    }
    Records& sync(std::uint8_t op, std::uint8_t cls, std::uint64_t object, std::uint64_t counter,
                  std::uint64_t clock, std::int64_t extra = 0, std::uint64_t incarnation = 0) {
        return b(fmt::kRecSync)
            .b(op)
            .b(cls)
            .v(object)
            .v(incarnation)
            .v(counter)
            .v(clock)
            .v(1)
            .v(0x4000 + op)
            .v(0)
            .v(fmt::zigzag(extra));
    }
    Records& end(std::uint64_t clock) { return b(fmt::kRecEnd).v(clock); }
};

class TraceDir {
  public:
    TraceDir() {
        path_ = fs::temp_directory_path() / ("firstrace-reader-test-" + std::to_string(getpid()) +
                                             "-" + std::to_string(counter_++));
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TraceDir() { fs::remove_all(path_); }
    std::string path() const { return path_.string(); }

    void metadata(const std::string& text) { std::ofstream(path_ / "metadata") << text; }
    void complete_metadata() {
        metadata(
            "firstrace-trace 1\ntool-version 0.1.0\nprogram /bin/app\narg app\ninstrumented 1\n"
            "end exit 0 0\n");
    }

    // Writes `records` as stream N, cut into chunks at the given raw offsets.
    void stream(std::uint32_t n, const Records& records, std::vector<std::size_t> cuts = {}) {
        std::ofstream out(path_ / ("stream-" + std::to_string(n) + ".frc"), std::ios::binary);
        cuts.push_back(records.bytes.size());
        std::size_t from = 0;
        std::uint32_t seq = 0;
        for (std::size_t to : cuts) {
            out << chunk(records.bytes.data() + from, to - from, seq++);
            from = to;
        }
    }
    void append_raw(std::uint32_t n, const std::string& bytes) {
        std::ofstream(path_ / ("stream-" + std::to_string(n) + ".frc"),
                      std::ios::binary | std::ios::app)
            << bytes;
    }

    static std::string chunk(const unsigned char* data, std::size_t n, std::uint32_t seq) {
        std::string z(ZSTD_compressBound(n), '\0');
        const std::size_t zn = ZSTD_compress(z.data(), z.size(), data, n, 1);
        z.resize(zn);
        fmt::ChunkHeader h{};
        std::memcpy(h.magic, fmt::kChunkMagic, 4);
        h.format_version = fmt::kFormatVersion;
        h.header_size = sizeof h;
        h.sequence = seq;
        h.compressed_size = static_cast<std::uint32_t>(zn);
        h.raw_size = static_cast<std::uint32_t>(n);
        h.checksum = fmt::chunk_checksum(h, z.data(), zn);
        return std::string(reinterpret_cast<const char*>(&h), sizeof h) + z;
    }

  private:
    static inline int counter_ = 0;
    fs::path path_;
};

// Stream 0 of `records` read as one chunk and cut into chunks at random offsets (steps of 1 to
// max_step bytes): the two models a chunked read must agree on.
struct WholeAndChunked {
    firstrace::Trace whole, chunked;
};
template <class Random>
WholeAndChunked read_whole_and_chunked(const Records& records, Random& random,
                                       std::size_t max_step) {
    std::vector<std::size_t> cuts;
    for (std::size_t at = 1 + random() % max_step; at < records.bytes.size();
         at += 1 + random() % max_step)
        cuts.push_back(at);
    TraceDir whole, chunked;
    whole.complete_metadata();
    chunked.complete_metadata();
    whole.stream(0, records);
    chunked.stream(0, records, cuts);
    return {firstrace::read_firstrace_trace(whole.path()),
            firstrace::read_firstrace_trace(chunked.path())};
}

Records main_stream() {
    Records r;
    r.process(0, 0)
        .compute(10, 0x1000, fmt::kWrite, {{0x10, 0x18}, {0x20, 0x28}})
        .sync(fmt::kOpFork, fmt::kObjThread, 1, 0, 20)
        .sync(fmt::kOpJoin, fmt::kObjThread, 1, 0, 90)
        .end(95);
    return r;
}

Records child_stream() {
    Records r;
    r.process(1, 1)
        .compute(30, 0x2000, fmt::kRead, {{0x10, 0x14}})
        .sync(fmt::kOpAcquire, fmt::kObjMutex, 0x500, 0, 40)
        .sync(fmt::kOpRelease, fmt::kObjMutex, 0x500, 1, 50)
        .sync(fmt::kOpSemPost, fmt::kObjSemaphore, 0x600, 0, 55, 2, 1)
        .b(fmt::kRecName)
        .v(1)
        .v(6)
        .b('w')
        .b('o')
        .b('r')
        .b('k')
        .b('e')
        .b('r')
        .end(60);
    return r;
}

std::string error_of(const std::string& dir) {
    try {
        firstrace::read_firstrace_trace(dir);
    } catch (const firstrace::InputError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(FirstraceTraceReader, BuildsTheModel) {
    TraceDir dir;
    dir.complete_metadata();
    dir.stream(0, main_stream());
    dir.stream(1, child_stream());
    const auto trace = firstrace::read_firstrace_trace(dir.path());
    EXPECT_EQ(trace.format, "firstrace");
    EXPECT_TRUE(trace.has_clock);
    EXPECT_FALSE(trace.truncated) << trace.truncation_reason;
    // the metadata travels in the model: nothing needs to reopen the directory
    ASSERT_TRUE(trace.metadata);
    EXPECT_EQ(trace.metadata->program, "/bin/app");
    EXPECT_EQ(trace.metadata->args, std::vector<std::string>{"app"});
    EXPECT_EQ(trace.metadata->tool_version, "0.1.0");
    EXPECT_TRUE(trace.metadata->instrumented);
    EXPECT_EQ(trace.metadata->end_how, "exit");
    ASSERT_EQ(trace.processes.size(), 2u);
    EXPECT_EQ(trace.processes[0].name, "main");
    EXPECT_EQ(trace.processes[1].name, "thread 1 (worker)");
    EXPECT_EQ(trace.processes[1].parent, 0u);

    const auto& m = trace.processes[0].events;
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(m[0].kind, EventKind::Computation);
    EXPECT_EQ(m[0].clock_start, 10u);
    EXPECT_EQ(m[0].clock_finish, 15u);
    ASSERT_EQ(m[0].site_count, 1u);
    const auto& site = trace.sites[m[0].first_site];
    EXPECT_EQ(site.flags, firstrace::kAccessWrite);
    ASSERT_EQ(site.range_count, 2u);
    EXPECT_EQ(trace.ranges[site.first_range], (firstrace::Interval{0x10, 0x18}));
    EXPECT_EQ(trace.ranges[site.first_range + 1], (firstrace::Interval{0x20, 0x28}));
    EXPECT_EQ(trace.locations[site.location].pc, 0x1000u);
    EXPECT_EQ(m[1].kind, EventKind::Fork);
    EXPECT_EQ(m[1].object, 1u);
    EXPECT_EQ(m[2].kind, EventKind::Join);

    const auto& c = trace.processes[1].events;
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[1].kind, EventKind::Acquire);
    EXPECT_EQ(c[2].kind, EventKind::Release);
    EXPECT_EQ(c[1].object, c[2].object);
    EXPECT_EQ(c[2].counter, 1u);
    const auto& mutex = trace.objects[c[1].object];
    EXPECT_EQ(mutex.kind, firstrace::SyncObjectKind::Lock);
    EXPECT_EQ(mutex.name, "mutex@0x500");
    EXPECT_EQ(c[3].kind, EventKind::SemPost);
    const auto& sem = trace.objects[c[3].object];
    EXPECT_EQ(sem.kind, firstrace::SyncObjectKind::Semaphore);
    EXPECT_EQ(sem.initial_value, 2);
    EXPECT_EQ(trace.locations[c[1].location].pc, 0x4000u + fmt::kOpAcquire);
}

TEST(FirstraceTraceReader, RecordsMaySpanChunks) {
    TraceDir dir;
    dir.complete_metadata();
    const Records r = main_stream();
    dir.stream(0, r, {3, 7, 8, r.bytes.size() - 1});
    dir.stream(1, child_stream());
    const auto trace = firstrace::read_firstrace_trace(dir.path());
    EXPECT_FALSE(trace.truncated) << trace.truncation_reason;
    EXPECT_EQ(trace.processes[0].events.size(), 3u);
    EXPECT_EQ(trace.ranges.size(), 3u);
}

TEST(FirstraceTraceReader, PartialChunkIsATruncation) {
    TraceDir dir;
    dir.complete_metadata();
    const Records r = main_stream();
    dir.stream(0, r, {r.bytes.size() - 2}); // last chunk holds the End record
    dir.stream(1, child_stream());
    // chop the last chunk in half
    const fs::path s0 = fs::path(dir.path()) / "stream-0.frc";
    fs::resize_file(s0, fs::file_size(s0) - 4);
    const auto trace = firstrace::read_firstrace_trace(dir.path());
    EXPECT_TRUE(trace.truncated);
    EXPECT_NE(trace.truncation_reason.find("still running"), std::string::npos)
        << trace.truncation_reason;
    EXPECT_EQ(trace.processes[0].events.size(), 3u); // everything before the cut is kept
}

TEST(FirstraceTraceReader, PartialRecordIsDropped) {
    TraceDir dir;
    dir.complete_metadata();
    Records r = main_stream();
    r.bytes.resize(r.bytes.size() - 3); // the Join record and End lose their tail
    dir.stream(0, r);
    dir.stream(1, child_stream());
    const auto trace = firstrace::read_firstrace_trace(dir.path());
    EXPECT_TRUE(trace.truncated);
    EXPECT_EQ(trace.processes[0].events.size(), 2u);
}

TEST(FirstraceTraceReader, SignalEndAndMissingEnd) {
    TraceDir dir;
    dir.metadata("firstrace-trace 1\ninstrumented 1\nend signal 11 1\n");
    dir.stream(0, main_stream());
    auto trace = firstrace::read_firstrace_trace(dir.path());
    EXPECT_TRUE(trace.truncated);
    EXPECT_NE(trace.truncation_reason.find("SIGSEGV"), std::string::npos)
        << trace.truncation_reason;

    dir.metadata("firstrace-trace 1\ninstrumented 1\nstatus signal 9\n");
    trace = firstrace::read_firstrace_trace(dir.path());
    EXPECT_TRUE(trace.truncated);
    EXPECT_NE(trace.truncation_reason.find("SIGKILL"), std::string::npos)
        << trace.truncation_reason;
}

TEST(FirstraceTraceReader, CorruptionIsAnError) {
    TraceDir dir;
    dir.complete_metadata();
    const Records r = main_stream();
    dir.stream(0, r, {6});
    dir.stream(1, child_stream());
    // flip a payload byte of the first of two chunks
    const fs::path s0 = fs::path(dir.path()) / "stream-0.frc";
    std::fstream f(s0, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(sizeof(fmt::ChunkHeader) + 2);
    char c = 0;
    f.read(&c, 1);
    c ^= 0x40;
    f.seekp(sizeof(fmt::ChunkHeader) + 2);
    f.write(&c, 1);
    f.close();
    EXPECT_NE(error_of(dir.path()).find("stream-0.frc: checksum mismatch in chunk 0"),
              std::string::npos)
        << error_of(dir.path());
}

TEST(FirstraceTraceReader, BadInputsAreErrors) {
    {
        TraceDir dir;
        EXPECT_NE(error_of(dir.path()).find("not a firstrace trace directory"), std::string::npos);
    }
    {
        TraceDir dir;
        dir.metadata("firstrace-trace 7\n");
        EXPECT_NE(error_of(dir.path()).find("metadata:1: trace format version 7"),
                  std::string::npos)
            << error_of(dir.path());
    }
    {
        TraceDir dir;
        dir.metadata("firstrace-trace 1\nend exit 0 0\n");
        EXPECT_NE(error_of(dir.path()).find("showed no instrumentation"), std::string::npos)
            << error_of(dir.path());
    }
    {
        TraceDir dir;
        dir.complete_metadata();
        Records r;
        r.process(0, 0).b(42);
        dir.stream(0, r);
        EXPECT_NE(error_of(dir.path()).find("unknown record type 42"), std::string::npos)
            << error_of(dir.path());
    }
    {
        TraceDir dir;
        dir.complete_metadata();
        const Records r = main_stream();
        dir.stream(0, r);
        const std::string again = TraceDir::chunk(r.bytes.data(), r.bytes.size(), 5);
        dir.append_raw(0, again);
        EXPECT_NE(error_of(dir.path()).find("out of sequence"), std::string::npos)
            << error_of(dir.path());
    }
    {
        TraceDir dir;
        dir.complete_metadata();
        dir.stream(0, main_stream());
        dir.append_raw(0, std::string(40, 'x'));
        EXPECT_NE(error_of(dir.path()).find("no chunk header at offset"), std::string::npos)
            << error_of(dir.path());
    }
}

// --- the consistent cut of truncated traces ------------------------------------------------------

TEST(FirstraceTraceReader, TruncatedTraceIsCutAfterALostRelease) {
    TraceDir dir;
    dir.metadata("firstrace-trace 1\ninstrumented 1\n"); // killed: no end line
    Records main;
    main.process(0, 0)
        .sync(fmt::kOpFork, fmt::kObjThread, 1, 0, 1)
        .sync(fmt::kOpFork, fmt::kObjThread, 2, 0, 2);
    Records t1;
    t1.process(1, 1)
        .sync(fmt::kOpAcquire, fmt::kObjMutex, 0x500, 0, 10)
        .compute(11, 0x2000, fmt::kWrite, {{0x10, 0x18}})
        .sync(fmt::kOpRelease, fmt::kObjMutex, 0x500, 1, 12)
        .sync(fmt::kOpAcquire, fmt::kObjMutex, 0x500, 4, 40) // after thread 2's lost release 3
        .compute(41, 0x2000, fmt::kWrite, {{0x10, 0x18}});
    Records t2;
    t2.process(2, 1)
        .sync(fmt::kOpAcquire, fmt::kObjMutex, 0x500, 2, 20)
        .compute(21, 0x3000, fmt::kWrite, {{0x10, 0x18}}); // its unlock (counter 3) was lost
    dir.stream(0, main);
    dir.stream(1, t1);
    dir.stream(2, t2);
    const auto trace = firstrace::read_firstrace_trace(dir.path());
    EXPECT_TRUE(trace.truncated);
    EXPECT_NE(trace.truncation_reason.find("cut at a consistent point: 2 event(s) of thread(s) 1"),
              std::string::npos)
        << trace.truncation_reason;
    ASSERT_EQ(trace.processes.size(), 3u);
    EXPECT_EQ(trace.processes[0].events.size(), 2u);
    EXPECT_EQ(trace.processes[1].events.size(), 3u); // up to its release 1
    EXPECT_EQ(trace.processes[2].events.size(), 2u);
}

TEST(FirstraceTraceReader, LostForkIsRestoredAtTheEndOfTheParent) {
    TraceDir dir;
    dir.metadata("firstrace-trace 1\ninstrumented 1\n");
    Records main;
    main.process(0, 0).compute(1, 0x1000, fmt::kWrite, {{0x10, 0x18}}); // its Fork was lost
    Records child;
    child.process(1, 1).compute(30, 0x2000, fmt::kRead, {{0x10, 0x18}});
    dir.stream(0, main);
    dir.stream(1, child);
    const auto trace = firstrace::read_firstrace_trace(dir.path());
    ASSERT_EQ(trace.processes[0].events.size(), 2u);
    EXPECT_EQ(trace.processes[0].events[1].kind, EventKind::Fork);
    EXPECT_EQ(trace.processes[0].events[1].object, 1u);
    EXPECT_EQ(trace.processes[1].events.size(), 1u);
}

// A thread created just before the end that had not started (no record of its own): the
// metadata names it `not-started` and the trace is complete; a thread that recorded something
// without ending stays a truncation whatever the metadata says, as does one not named.
TEST(FirstraceTraceReader, NotStartedThreadIsNoTruncation) {
    TraceDir dir;
    Records main;
    main.process(0, 0)
        .compute(1, 0x1000, fmt::kWrite, {{0x10, 0x18}})
        .sync(fmt::kOpFork, fmt::kObjThread, 1, 0, 2)
        .sync(fmt::kOpFork, fmt::kObjThread, 2, 0, 3)
        .end(4);
    Records started;
    started.process(2, 1).compute(5, 0x2000, fmt::kRead, {{0x10, 0x18}});
    dir.stream(0, main);
    dir.stream(2, started);
    const std::string head = "firstrace-trace 1\ninstrumented 1\n";
    dir.metadata(head + "not-started 1\nend exit 0 0\n");
    auto trace = firstrace::read_firstrace_trace(dir.path());
    EXPECT_TRUE(trace.truncated); // thread 2 recorded an event and has no end
    EXPECT_NE(trace.truncation_reason.find("(2)"), std::string::npos) << trace.truncation_reason;
    dir.metadata(head + "not-started 1\nnot-started 2\nend exit 0 0\n");
    trace = firstrace::read_firstrace_trace(dir.path());
    EXPECT_TRUE(trace.truncated); // named, but it has records of its own
    EXPECT_NE(trace.truncation_reason.find("(2)"), std::string::npos) << trace.truncation_reason;
    fs::remove(fs::path(dir.path()) / "stream-2.frc");
    trace = firstrace::read_firstrace_trace(dir.path());
    EXPECT_FALSE(trace.truncated) << trace.truncation_reason;
    dir.metadata(head + "not-started 2\nend exit 0 0\n");
    trace = firstrace::read_firstrace_trace(dir.path());
    EXPECT_TRUE(trace.truncated); // thread 1 is not named
    EXPECT_NE(trace.truncation_reason.find("(1)"), std::string::npos) << trace.truncation_reason;
    dir.metadata(head + "not-started x\nend exit 0 0\n");
    EXPECT_THROW(firstrace::read_firstrace_trace(dir.path()), firstrace::InputError);
}

// Randomized differential test of the cut against its definition: random lock traces of three
// threads (two mutexes, counters in a random real order), each stream cut at a random point.
// The kept prefixes must be the greatest vector of prefixes in which every kept acquire has all
// smaller counters of its object among the kept events (such vectors are closed under the
// pointwise max, so the greatest one exists), found by enumerating every vector of prefixes.
TEST(FirstraceTraceReader, ConsistentCutMatchesBruteForce) {
    std::uint64_t seed = 12345;
    auto rnd = [&](std::uint64_t n) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return (seed >> 33) % n;
    };
    struct Op {
        bool acquire;
        int mutex;
        std::uint64_t counter;
    };
    for (int round = 0; round < 60; ++round) {
        constexpr int kThreads = 3;
        std::vector<std::vector<Op>> ops(kThreads);
        std::uint64_t counter[2] = {0, 0};
        int held[kThreads];
        for (int& h : held)
            h = -1;
        const int steps = 6 + static_cast<int>(rnd(10));
        int owner[2] = {-1, -1};
        for (int s = 0; s < steps; ++s) {
            const int t = static_cast<int>(rnd(kThreads));
            if (held[t] >= 0) {
                const int m = held[t];
                ops[t].push_back({false, m, counter[m]++});
                owner[m] = -1;
                held[t] = -1;
            } else {
                const int m = static_cast<int>(rnd(2));
                if (owner[m] >= 0) continue;
                ops[t].push_back({true, m, counter[m]++});
                owner[m] = t;
                held[t] = m;
            }
        }
        std::vector<std::size_t> written(kThreads);
        TraceDir dir;
        dir.metadata("firstrace-trace 1\ninstrumented 1\n");
        for (int t = 0; t < kThreads; ++t) {
            written[t] = rnd(ops[t].size() + 1);
            Records r;
            r.process(static_cast<std::uint32_t>(t), 0);
            for (std::size_t i = 0; i < written[t]; ++i)
                r.sync(ops[t][i].acquire ? fmt::kOpAcquire : fmt::kOpRelease, fmt::kObjMutex,
                       0x100 + static_cast<std::uint64_t>(ops[t][i].mutex), ops[t][i].counter,
                       10 * i + 1);
            dir.stream(static_cast<std::uint32_t>(t), r);
        }
        const auto trace = firstrace::read_firstrace_trace(dir.path());

        auto consistent = [&](const std::vector<std::size_t>& keep) {
            for (int m = 0; m < 2; ++m) {
                std::vector<bool> present(counter[m] + 1, false);
                for (int t = 0; t < kThreads; ++t)
                    for (std::size_t i = 0; i < keep[t]; ++i)
                        if (ops[t][i].mutex == m) present[ops[t][i].counter] = true;
                std::uint64_t gap = 0;
                while (gap < present.size() && present[gap])
                    ++gap;
                for (int t = 0; t < kThreads; ++t)
                    for (std::size_t i = 0; i < keep[t]; ++i)
                        if (ops[t][i].mutex == m && ops[t][i].acquire && ops[t][i].counter > gap)
                            return false;
            }
            return true;
        };
        std::vector<std::size_t> best(kThreads, 0), keep(kThreads, 0);
        for (keep[0] = 0; keep[0] <= written[0]; ++keep[0])
            for (keep[1] = 0; keep[1] <= written[1]; ++keep[1])
                for (keep[2] = 0; keep[2] <= written[2]; ++keep[2])
                    if (consistent(keep))
                        for (int t = 0; t < kThreads; ++t)
                            best[t] = std::max(best[t], keep[t]);
        ASSERT_TRUE(consistent(best)) << "round " << round;
        for (int t = 0; t < kThreads; ++t) {
            const std::size_t got = static_cast<std::size_t>(t) < trace.processes.size()
                                        ? trace.processes[static_cast<std::size_t>(t)].events.size()
                                        : 0;
            EXPECT_EQ(got, best[t]) << "round " << round << " thread " << t;
        }
    }
}

TEST(FirstraceTraceReader, InstrumentedProgramWithoutEventsHasNoRace) {
    TraceDir dir;
    dir.complete_metadata();
    const auto trace = firstrace::read_firstrace_trace(dir.path());
    EXPECT_TRUE(trace.processes.empty());
    EXPECT_FALSE(trace.truncated);
}

TEST(FirstraceTraceReader, BenignRangesLeaveTheAccesses) {
    TraceDir dir;
    dir.complete_metadata();
    Records r;
    r.process(0, 0)
        .b(fmt::kRecBenign)
        .v(0x14)
        .v(8) // [0x14, 0x1c)
        .compute(10, 0x1000, fmt::kWrite, {{0x10, 0x18}, {0x1a, 0x30}})
        .b(fmt::kRecAlloc)
        .v(0x7000)
        .v(64)
        .v(0x1234)
        .v(0)
        .end(20);
    dir.stream(0, r);
    const auto trace = firstrace::read_firstrace_trace(dir.path());
    const auto& site = trace.sites[trace.processes[0].events[0].first_site];
    ASSERT_EQ(site.range_count, 2u);
    EXPECT_EQ(trace.ranges[site.first_range], (firstrace::Interval{0x10, 0x14}));
    EXPECT_EQ(trace.ranges[site.first_range + 1], (firstrace::Interval{0x1c, 0x30}));
    ASSERT_EQ(trace.heap_blocks.size(), 1u);
    EXPECT_EQ(trace.heap_blocks[0].range, (firstrace::Interval{0x7000, 0x7040}));
    EXPECT_EQ(trace.heap_blocks[0].process, 0u);
    EXPECT_EQ(trace.heap_blocks[0].event, 1u);
    EXPECT_EQ(trace.locations[trace.heap_blocks[0].location].pc, 0x1234u);
}

namespace {
// Process 0 creating processes 1 and 2.
Records main_forking_two() {
    Records main;
    main.process(0, 0)
        .sync(fmt::kOpFork, fmt::kObjThread, 1, 0, 1)
        .sync(fmt::kOpFork, fmt::kObjThread, 2, 0, 2)
        .end(100);
    return main;
}
} // namespace

// A free's object is named by its incarnation (unique per free): the Acquire of the thread that
// got its bytes carries address 0, the free's Release the freed block; read in either order
// they are one object, named by the block. Frees of the same block are different objects.
TEST(FirstraceTraceReader, HeapFreeObjectsAreKeyedByIncarnation) {
    TraceDir dir;
    dir.complete_metadata();
    const Records main = main_forking_two();
    Records allocator; // read first: knows the frees by their incarnation only
    allocator.process(1, 1)
        .sync(fmt::kOpAcquire, fmt::kObjHeapBlock, 0, 1, 50, 0, 77)
        .sync(fmt::kOpAcquire, fmt::kObjHeapBlock, 0, 1, 51, 0, 78)
        .end(60);
    Records freer;
    freer.process(2, 1)
        .sync(fmt::kOpRelease, fmt::kObjHeapBlock, 0x9000, 0, 10, 0, 77)
        .sync(fmt::kOpRelease, fmt::kObjHeapBlock, 0x9000, 0, 20, 0, 78)
        .end(30);
    dir.stream(0, main);
    dir.stream(1, allocator);
    dir.stream(2, freer);
    const auto trace = firstrace::read_firstrace_trace(dir.path());
    const auto& acquires = trace.processes[1].events;
    const auto& releases = trace.processes[2].events;
    ASSERT_EQ(acquires.size(), 2u);
    ASSERT_EQ(releases.size(), 2u);
    EXPECT_EQ(acquires[0].object, releases[0].object);
    EXPECT_EQ(acquires[1].object, releases[1].object);
    EXPECT_NE(releases[0].object, releases[1].object);
    EXPECT_EQ(trace.objects[acquires[0].object].address, 0x9000u);
    EXPECT_EQ(trace.objects[acquires[0].object].name, "heap-block@0x9000#77");
    EXPECT_FALSE(trace.truncated);
}

// A reuse of freed bytes by another process starts a new lifetime of them (memory_lifetimes.hpp):
// the new owner's accesses get keys of lifetime 1, and each heap block knows the lifetime it
// was allocated in, so a report names the incarnation of the race's own lifetime, not the
// latest block at the address (both blocks start at 0x9000; the old owner's access used to be
// named by the new owner's block).
TEST(FirstraceTraceReader, ReusedBytesNameTheBlockOfTheirLifetime) {
    TraceDir dir;
    dir.complete_metadata();
    const Records main = main_forking_two();
    const auto alloc = [](Records& r, std::uint64_t pc) {
        r.b(fmt::kRecAlloc).v(0x9000).v(64).v(pc).v(0);
    };
    Records old_owner;
    old_owner.process(1, 1);
    alloc(old_owner, 0x1111);
    old_owner.compute(10, 0x1000, fmt::kWrite, {{0x9000, 0x9008}})
        .sync(fmt::kOpRelease, fmt::kObjHeapBlock, 0x9000, 0, 20, 0, 77)
        .end(30);
    Records new_owner;
    new_owner.process(2, 1);
    alloc(new_owner, 0x2222);
    new_owner.sync(fmt::kOpAcquire, fmt::kObjHeapBlock, 0x9000, 1, 50, 64, 77)
        .compute(60, 0x1000, fmt::kWrite, {{0x9000, 0x9008}})
        .end(70);
    dir.stream(0, main);
    dir.stream(1, old_owner);
    dir.stream(2, new_owner);
    const auto trace = firstrace::read_firstrace_trace(dir.path());
    ASSERT_EQ(trace.heap_blocks.size(), 2u);
    const auto access = [&](std::uint32_t pid) {
        for (const auto& e : trace.processes[pid].events)
            if (e.kind == firstrace::EventKind::Computation)
                return trace.ranges[trace.sites[e.first_site].first_range];
        return firstrace::Interval{};
    };
    const firstrace::Interval old_key = access(1), new_key = access(2);
    EXPECT_EQ(old_key, (firstrace::Interval{0x9000, 0x9008}));
    EXPECT_EQ(firstrace::program_range(new_key), old_key);
    EXPECT_EQ(firstrace::lifetime_of(new_key.lo), 1u);
    for (std::uint32_t b = 0; b < 2; ++b) {
        const auto& block = trace.heap_blocks[b];
        const std::uint64_t pc = trace.locations[block.location].pc;
        EXPECT_EQ(block.lifetime, pc == 0x2222 ? 1u : 0u) << "block " << b;
    }
    const firstrace::MemoryNames names(trace);
    const auto pc_of = [&](const firstrace::Interval& key) {
        const std::uint32_t b = names.heap_block(key);
        return b < trace.heap_blocks.size() ? trace.locations[trace.heap_blocks[b].location].pc
                                            : std::uint64_t{0};
    };
    EXPECT_EQ(pc_of(old_key), 0x1111u);
    EXPECT_EQ(pc_of(new_key), 0x2222u);
}

// A synchronization object in reused memory (sync_object_lifetimes.hpp): an operation on a mutex
// or an atomic belongs to the lifetime of the object's byte at the operation's end, the latest
// reuse covering it that started before, and the operations of one lifetime are one object.
// Brute force: random operations of 3 threads on 4 objects (two classes at each of two
// addresses) among random reuses of ranges holding them; two operations on one (class,
// address) share an object exactly when the latest reuse before each is the same (or none).
TEST(FirstraceTraceReader, SyncObjectsInReusedMemoryMatchBruteForce) {
    std::mt19937_64 rng(20261125);
    const auto rnd = [&](std::uint64_t n) { return rng() % n; };
    constexpr std::uint32_t kThreads = 3;
    const std::uint64_t address[2] = {0x9000, 0x9040};
    const std::uint8_t cls[2] = {fmt::kObjMutex, fmt::kObjAtomic};
    struct Start {
        std::uint64_t lo, hi, clock;
    };
    struct Op {
        int object; // address index * 2 + class index
        std::uint64_t clock;
        std::uint32_t process, event;
    };
    for (int round = 0; round < 200; ++round) {
        TraceDir dir;
        dir.complete_metadata();
        Records main;
        main.process(0, 0);
        for (std::uint32_t t = 1; t <= kThreads; ++t)
            main.sync(fmt::kOpFork, fmt::kObjThread, t, 0, t);
        main.end(1'000'000);
        std::vector<Records> threads(kThreads);
        std::vector<std::uint32_t> events(kThreads, 0);
        std::vector<Start> last_start(kThreads, Start{0, 0, 0}); // the previous event's, if one
        for (std::uint32_t t = 0; t < kThreads; ++t)
            threads[t].process(t + 1, 1);
        std::vector<Start> starts;
        std::vector<Op> ops;
        std::uint64_t counter[4] = {0, 0, 0, 0};
        const int steps = 5 + static_cast<int>(rnd(30));
        for (int step = 0; step < steps; ++step) {
            const auto t = static_cast<std::uint32_t>(rnd(kThreads));
            const std::uint64_t clock = 10 + 10 * static_cast<std::uint64_t>(step);
            if (rnd(4) == 0) { // a reuse of [lo, hi): holding one object's byte, both, or none
                const std::uint64_t lo = 0x8ff0 + 0x10 * rnd(8);
                const std::uint64_t hi = lo + 0x10 + 0x10 * rnd(8);
                if (last_start[t].lo == lo && last_start[t].hi == hi) continue; // one allocation
                threads[t].sync(fmt::kOpAcquire, fmt::kObjHeapBlock, lo, 1, clock,
                                static_cast<std::int64_t>(hi - lo), 100 + step);
                starts.push_back({lo, hi, clock});
                last_start[t] = {lo, hi, clock};
            } else {
                const int object = static_cast<int>(rnd(4));
                threads[t].sync(rnd(2) ? fmt::kOpAcquire : fmt::kOpRelease, cls[object % 2],
                                address[object / 2], counter[object]++, clock);
                ops.push_back({object, clock + 1, t + 1, events[t]});
                last_start[t] = {0, 0, 0};
            }
            ++events[t];
        }
        dir.stream(0, main);
        for (std::uint32_t t = 0; t < kThreads; ++t) {
            threads[t].end(999'999);
            dir.stream(t + 1, threads[t]);
        }
        const auto trace = firstrace::read_firstrace_trace(dir.path());
        // the latest start before `clock` over the byte at `at` (-1: none)
        const auto latest = [&](std::uint64_t at, std::uint64_t clock) {
            int found = -1;
            for (std::size_t i = 0; i < starts.size(); ++i)
                if (starts[i].lo <= at && at < starts[i].hi && starts[i].clock < clock)
                    found = static_cast<int>(i);
            return found;
        };
        const auto object_of = [&](const Op& op) {
            return trace.processes[op.process].events[op.event].object;
        };
        for (const Op& a : ops) {
            const firstrace::SyncObject& o = trace.objects[object_of(a)];
            EXPECT_EQ(o.address, address[a.object / 2]) << "round " << round;
            for (const Op& b : ops) {
                if (a.object != b.object) continue;
                const std::uint64_t at = address[a.object / 2];
                EXPECT_EQ(object_of(a) == object_of(b), latest(at, a.clock) == latest(at, b.clock))
                    << "round " << round << ": operations at clocks " << a.clock << ", " << b.clock;
            }
        }
    }
}

// --- process ids and calling contexts at scale (issues 10, 13) ---------------------------------

// Process ids are the tracer's numbering; tables are as long as the processes a trace has,
// whatever ids it names (a 10 KB mutated trace naming process 700 000 made 700 000 processes).
TEST(FirstraceTraceReader, SparseProcessIdsGiveDenseTables) {
    TraceDir dir;
    dir.complete_metadata();
    const std::uint64_t huge = std::uint64_t{1} << 40, big = 4'000'000'000u;
    Records main;
    main.process(0, 0)
        .compute(1, 0x1000, fmt::kWrite, {{0x10, 0x18}})
        .sync(fmt::kOpFork, fmt::kObjThread, huge, 0, 2)
        .sync(fmt::kOpFork, fmt::kObjThread, big, 0, 3)
        .sync(fmt::kOpJoin, fmt::kObjThread, huge, 0, 90)
        .sync(fmt::kOpJoin, fmt::kObjThread, big, 0, 91)
        .end(95);
    Records first; // the larger id is seen first: numbering follows the ids, not the order
    first.b(fmt::kRecProcess).v(huge).v(1).b(0).v(7);
    first.compute(10, 0x2000, fmt::kWrite, {{0x10, 0x18}}).end(20);
    Records second;
    second.b(fmt::kRecProcess).v(big).v(1).b(0).v(8);
    second.compute(30, 0x3000, fmt::kRead, {{0x10, 0x14}}).end(40);
    dir.stream(0, main);
    dir.stream(1, first);
    dir.stream(2, second);
    const auto trace = firstrace::read_firstrace_trace(dir.path());
    EXPECT_FALSE(trace.truncated) << trace.truncation_reason;
    ASSERT_EQ(trace.processes.size(), 3u);
    const auto& m = trace.processes[0].events;
    ASSERT_EQ(m.size(), 5u);
    EXPECT_EQ(m[1].object, 2u); // fork of `huge`
    EXPECT_EQ(m[2].object, 1u); // fork of `big`
    EXPECT_EQ(m[3].object, 2u);
    EXPECT_EQ(m[4].object, 1u);
    EXPECT_EQ(trace.processes[1].parent, 0u);
    EXPECT_EQ(trace.processes[2].parent, 0u);
    EXPECT_EQ(trace.processes[1].name, "thread 1");
    EXPECT_EQ(trace.locations[trace.sites[trace.processes[1].events[0].first_site].location].pc,
              0x3000u);
    EXPECT_EQ(trace.locations[trace.sites[trace.processes[2].events[0].first_site].location].pc,
              0x2000u);
    // Both children write or read 0x10..0x14 unordered with each other, after the parent's
    // write: one race (thread 1 reads, thread 2 writes).
    const auto result = firstrace::analyze(trace);
    ASSERT_EQ(result.races.size(), 1u);
}

// Thousands of sparse ids in a few kilobytes: as many processes as ids named, no more.
TEST(FirstraceTraceReader, ManySparseProcessIdsInATinyTrace) {
    TraceDir dir;
    dir.complete_metadata();
    Records r;
    r.process(0, 0);
    constexpr std::uint64_t kIds = 2000;
    for (std::uint64_t k = 1; k <= kIds; ++k) // ids k * 2^32: a dense table would not fit
        r.b(fmt::kRecSwitch).v(k << 32).compute(k, 0x1000, fmt::kWrite, {{0x10, 0x18}});
    r.b(fmt::kRecSwitch).v(0).end(kIds + 1);
    dir.stream(0, r);
    ASSERT_LT(fs::file_size(fs::path(dir.path()) / "stream-0.frc"), 64u * 1024);
    const auto trace = firstrace::read_firstrace_trace(dir.path());
    ASSERT_EQ(trace.processes.size(), kIds + 1);
    for (std::uint64_t k = 1; k <= kIds; ++k)
        EXPECT_EQ(trace.processes[k].events.size(), 1u);
}

namespace {

// A compute record with one site, no ranges kept apart, and the calling context `pcs`
// (outermost first).
Records& compute_in(Records& r, std::uint64_t start, const std::vector<std::uint64_t>& pcs) {
    r.b(fmt::kRecCompute).v(start).v(1).v(pcs.size());
    for (std::uint64_t pc : pcs)
        r.v(pc);
    return r.v(1).v(0x1000).b(fmt::kWrite).v(1).v(0x10 + start).v(1);
}

// The frames of a context node, outermost first, by following the parents.
std::vector<std::uint64_t> frames_of(const firstrace::Trace& trace, std::uint32_t node) {
    std::vector<std::uint64_t> out;
    for (; node != firstrace::kNone; node = trace.contexts[node].parent)
        out.insert(out.begin(), trace.locations[trace.contexts[node].location].pc);
    return out;
}

} // namespace

// Calling contexts are interned once per (parent, frame), however the records share their
// prefixes and wherever the chunks cut them: random stacks from a small call tree, read
// whole and cut into chunks of 1 to 7 bytes, give the same model, and every event's context
// spells its stack.
TEST(FirstraceTraceReader, CallingContextsAreInternedExactly) {
    std::mt19937 random(7);
    for (int round = 0; round < 8; ++round) {
        Records r;
        r.process(0, 0);
        std::vector<std::vector<std::uint64_t>> stacks;
        std::vector<std::uint64_t> stack;
        for (std::uint64_t e = 0; e < 200; ++e) {
            // push or pop a few frames, sometimes restart from another root
            const unsigned op = random() % 10;
            if (op < 4 && !stack.empty())
                stack.resize(random() % stack.size());
            else if (op == 9)
                stack.assign(1, 0x100 + random() % 3);
            for (unsigned k = random() % 4; k > 0; --k)
                stack.push_back(0x100 + random() % 5); // few pcs: recursion repeats them
            stacks.push_back(stack);
            compute_in(r, e + 1, stack);
        }
        r.end(1000);
        const auto [a, b] = read_whole_and_chunked(r, random, 7);
        ASSERT_FALSE(b.truncated) << b.truncation_reason;
        ASSERT_EQ(a.processes[0].events.size(), stacks.size());
        ASSERT_EQ(b.processes[0].events.size(), stacks.size());
        ASSERT_EQ(a.contexts.size(), b.contexts.size());
        std::set<std::pair<std::uint32_t, std::uint32_t>> nodes;
        for (const auto& c : a.contexts)
            EXPECT_TRUE(nodes.insert({c.parent, c.location}).second) << "a node twice";
        for (std::size_t e = 0; e < stacks.size(); ++e) {
            EXPECT_EQ(frames_of(a, a.processes[0].events[e].context), stacks[e]) << e;
            EXPECT_EQ(a.processes[0].events[e].context, b.processes[0].events[e].context);
        }
        for (std::size_t c = 0; c < a.contexts.size(); ++c) {
            EXPECT_EQ(a.contexts[c].parent, b.contexts[c].parent);
            EXPECT_EQ(a.contexts[c].location, b.contexts[c].location);
        }
    }
}

namespace {

// A computation record of several sites, each one (pc, flags, ranges).
struct SiteSpec {
    std::uint64_t pc;
    std::uint8_t flags;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
};
void compute_sites(Records& r, std::uint64_t start, const std::vector<SiteSpec>& sites) {
    r.b(fmt::kRecCompute).v(start).v(1).v(0).v(sites.size());
    for (const SiteSpec& s : sites) {
        r.v(s.pc).b(s.flags).v(s.ranges.size());
        std::uint64_t prev = 0;
        for (auto [lo, hi] : s.ranges) {
            r.v(lo - prev).v(hi - lo);
            prev = hi;
        }
    }
}

// An event's accesses as (pc, flags, ranges) triples.
std::vector<SiteSpec> accesses_of(const firstrace::Trace& t, const firstrace::Event& e) {
    std::vector<SiteSpec> out;
    for (std::uint32_t s = e.first_site; s < e.first_site + e.site_count; ++s) {
        const auto& site = t.sites[s];
        SiteSpec spec{t.locations[site.location].pc, site.flags, {}};
        for (std::uint32_t k = site.first_range; k < site.first_range + site.range_count; ++k)
            spec.ranges.emplace_back(t.ranges[k].lo, t.ranges[k].hi);
        out.push_back(spec);
    }
    return out;
}
bool operator==(const SiteSpec& a, const SiteSpec& b) {
    return a.pc == b.pc && a.flags == b.flags && a.ranges == b.ranges;
}

} // namespace

// Computation events repeating the accesses of a recent one share its run of sites
// (trace_site_runs.hpp): every event still shows exactly the accesses it made, read whole or
// cut into chunks at every few bytes (a record parsed twice), and the repeats add no sites.
TEST(FirstraceTraceReader, RepeatedAccessListsShareOneRun) {
    std::mt19937 random(11);
    const std::vector<std::vector<SiteSpec>> lists = {
        {{0x100, fmt::kRead, {{0x10, 0x18}}}, {0x104, fmt::kWrite, {{0x40, 0x41}, {0x48, 0x50}}}},
        {{0x100, fmt::kRead, {{0x10, 0x18}}}, {0x104, fmt::kWrite, {{0x40, 0x41}, {0x48, 0x51}}}},
        {{0x108, fmt::kRead | fmt::kWrite, {{0x80, 0x88}}}},
        {{0x100, fmt::kRead, {{0x10, 0x18}}}},
    };
    for (int round = 0; round < 6; ++round) {
        Records r;
        r.process(0, 0);
        std::vector<std::size_t> written;
        std::uint64_t counter = 0;
        for (std::uint64_t e = 0; e < 300; ++e) {
            const std::size_t pick = random() % 3 == 0 ? random() % lists.size()
                                     : written.empty() ? 0
                                                       : written.back();
            written.push_back(pick);
            compute_sites(r, 10 * e, lists[pick]);
            r.sync(e % 2 ? fmt::kOpRelease : fmt::kOpAcquire, fmt::kObjMutex, 0x500, counter++,
                   10 * e + 5);
        }
        r.end(10000);
        const auto [a, b] = read_whole_and_chunked(r, random, 9);
        ASSERT_FALSE(b.truncated) << b.truncation_reason;
        for (const auto* t : {&a, &b}) {
            const auto& events = t->processes[0].events;
            ASSERT_EQ(events.size(), 2 * written.size());
            for (std::size_t e = 0; e < written.size(); ++e)
                ASSERT_EQ(accesses_of(*t, events[2 * e]), lists[written[e]]) << e;
            EXPECT_LE(t->sites.size(), 20u) << "repeats share their runs";
        }
        EXPECT_EQ(a.sites.size(), b.sites.size());
        for (std::size_t e = 0; e < a.processes[0].events.size(); ++e)
            EXPECT_EQ(a.processes[0].events[e].first_site, b.processes[0].events[e].first_site);
    }
}

// The OpenMP relocation of a task's block rewrites the sites of the computation event before
// the task's fork: when that event shares its run with an earlier one, it gets a copy first,
// and the earlier event keeps the addresses it accessed.
TEST(FirstraceTraceReader, RelocatingASharedRunCopiesIt) {
    TraceDir dir;
    dir.complete_metadata();
    const std::vector<SiteSpec> fill = {{0x100, fmt::kWrite, {{0x7000, 0x7008}}}};
    Records main;
    main.process(0, 0);
    compute_sites(main, 10, fill);
    main.sync(fmt::kOpAcquire, fmt::kObjMutex, 0x500, 0, 15)
        .sync(fmt::kOpRelease, fmt::kObjMutex, 0x500, 1, 16);
    compute_sites(main, 20, fill); // fills in the task's block, then forks it
    main.sync(fmt::kOpFork, fmt::kObjThread, 1, 0, 30)
        .b(fmt::kRecTaskBlock)
        .v(1)
        .v(0x7000)
        .v(0x7040)
        .sync(fmt::kOpJoin, fmt::kObjThread, 1, 0, 90)
        .end(95);
    Records task;
    task.b(fmt::kRecProcess).v(1).v(1).b(fmt::kProcTask).v(101);
    compute_sites(task, 40, {{0x200, fmt::kRead, {{0x7000, 0x7008}}}});
    task.end(60);
    dir.stream(0, main);
    dir.stream(1, task);
    const auto trace = firstrace::read_firstrace_trace(dir.path());
    const auto& events = trace.processes[0].events;
    ASSERT_EQ(events.size(), 6u);
    EXPECT_EQ(accesses_of(trace, events[0]), fill) << "the earlier event keeps its bytes";
    const auto moved = accesses_of(trace, events[3]);
    ASSERT_EQ(moved.size(), 1u);
    ASSERT_EQ(moved[0].ranges.size(), 1u);
    EXPECT_NE(moved[0].ranges[0].first, 0x7000u) << "the fork's filling event moved";
    EXPECT_EQ(accesses_of(trace, trace.processes[1].events[0])[0].ranges, moved[0].ranges);
}
