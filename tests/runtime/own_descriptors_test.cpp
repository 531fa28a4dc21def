// The runtime's own descriptors (tracer/src/rt_own_descriptors.*) on real descriptors of this
// process, against a brute-force reference (fcntl(F_GETFD) on every number): random mixes of
// "program" descriptors and runtime descriptors on the runtime's band, then close_range over
// random ranges must close exactly the program's in the range; the listing of /proc/self/fd
// must give exactly the open program descriptors; moving a runtime descriptor off a number the
// program takes (vacate) keeps the same file in the holder.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include "rt_own_descriptors.hpp"

namespace {

bool is_open(int fd) {
    return fcntl(fd, F_GETFD) >= 0;
}

ino_t inode_of(int fd) {
    struct stat st {};
    return fstat(fd, &st) == 0 ? st.st_ino : 0;
}

// A runtime descriptor of a file of its own (a pipe's read end), and the pipe's write end,
// which stays in the test's hands to tell the files apart.
struct Owned {
    std::atomic<int> holder{-1};
    int other_end = -1;
    ino_t inode = 0;
};

class Mix {
  public:
    explicit Mix(std::mt19937& rng) {
        // the first runtime descriptor shows where the band begins
        add_owned();
        const int first = owned_.front()->holder.load();
        // program descriptors on a random half of the next 48 numbers, runtime ones in the gaps
        const int null = open("/dev/null", O_RDONLY);
        for (int fd = first + 1; fd < first + 48; ++fd)
            if (!is_open(fd) && rng() % 2 == 0 && dup2(null, fd) == fd) program_.insert(fd);
        close(null);
        for (int i = 0; i < 20; ++i)
            add_owned();
    }
    ~Mix() {
        for (auto& o : owned_) {
            frt::close_own_descriptor(o->holder);
            close(o->other_end);
        }
        for (int fd : program_)
            close(fd);
    }
    Mix(const Mix&) = delete;
    Mix& operator=(const Mix&) = delete;

    int low() const { return owned_.front()->holder.load(); }
    int high() const {
        int h = 0;
        for (const auto& o : owned_)
            h = std::max(h, o->holder.load());
        return std::max(h, program_.empty() ? 0 : *program_.rbegin());
    }
    std::set<int>& program() { return program_; }
    const std::vector<std::unique_ptr<Owned>>& owned() const { return owned_; }

  private:
    void add_owned() {
        int p[2];
        ASSERT_EQ(pipe(p), 0);
        auto o = std::make_unique<Owned>();
        o->other_end = p[1];
        o->inode = inode_of(p[0]);
        ASSERT_GE(frt::own_descriptor(o->holder, p[0]), 0);
        owned_.push_back(std::move(o));
    }
    std::set<int> program_;
    std::vector<std::unique_ptr<Owned>> owned_;
};

void expect_runtime_intact(const Mix& mix) {
    for (const auto& o : mix.owned()) {
        const int fd = o->holder.load();
        EXPECT_TRUE(frt::is_own_descriptor(fd)) << fd;
        EXPECT_TRUE(is_open(fd)) << fd;
        EXPECT_EQ(inode_of(fd), o->inode) << fd;
        EXPECT_NE(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0) << fd;
    }
}

TEST(OwnDescriptors, CloseRangeClosesExactlyTheProgramsInTheRange) {
    std::mt19937 rng(11);
    for (int round = 0; round < 40; ++round) {
        Mix mix(rng);
        const int span = mix.high() - mix.low() + 4;
        const unsigned first =
            static_cast<unsigned>(mix.low() - 2 + static_cast<int>(rng() % span));
        const unsigned last =
            rng() % 4 == 0 ? ~0u
                           : first + static_cast<unsigned>(rng() % static_cast<unsigned>(span));
        ASSERT_EQ(frt::close_range_sparing_own(first, last, 0), 0);
        for (auto it = mix.program().begin(); it != mix.program().end();) {
            const bool in_range =
                static_cast<unsigned>(*it) >= first && static_cast<unsigned>(*it) <= last;
            EXPECT_EQ(is_open(*it), !in_range) << *it << " in [" << first << ", " << last << "]";
            it = in_range ? mix.program().erase(it) : std::next(it);
        }
        expect_runtime_intact(mix);
    }
}

TEST(OwnDescriptors, ListingGivesTheOpenProgramDescriptors) {
    std::mt19937 rng(12);
    for (int round = 0; round < 10; ++round) {
        Mix mix(rng);
        const unsigned first = static_cast<unsigned>(mix.low() - 1);
        const unsigned last = static_cast<unsigned>(mix.high() + 1);
        std::vector<int> listed;
        frt::for_each_program_descriptor(first, last, [&](int fd) { listed.push_back(fd); });
        std::vector<int> expected;
        for (unsigned fd = first; fd <= last; ++fd)
            if (is_open(static_cast<int>(fd)) && !frt::is_own_descriptor(static_cast<int>(fd)))
                expected.push_back(static_cast<int>(fd));
        EXPECT_EQ(listed, expected);
        for (const auto& o : mix.owned())
            EXPECT_EQ(std::count(listed.begin(), listed.end(), o->holder.load()), 0);
    }
}

TEST(OwnDescriptors, VacatingMovesTheRuntimesFileAway) {
    std::mt19937 rng(13);
    for (int round = 0; round < 10; ++round) {
        Mix mix(rng);
        const int null = open("/dev/null", O_RDONLY);
        const ino_t null_inode = inode_of(null);
        // the program takes a few runtime numbers with dup2
        std::vector<int> taken;
        for (const auto& o : mix.owned())
            if (rng() % 3 == 0) taken.push_back(o->holder.load());
        for (int fd : taken) {
            ASSERT_TRUE(frt::vacate_own_descriptor(fd));
            EXPECT_FALSE(frt::is_own_descriptor(fd));
            ASSERT_EQ(dup2(null, fd), fd);
            EXPECT_EQ(inode_of(fd), null_inode);
            mix.program().insert(fd);
        }
        close(null);
        expect_runtime_intact(mix);
        EXPECT_TRUE(frt::vacate_own_descriptor(null)); // not the runtime's: nothing to do
    }
}

} // namespace
