// ReusedSymbolizer (symbolizer_reuse.hpp): the next trace of the same module files at the same
// addresses gets the previous trace's symbolizer, with the same answers as a fresh one; another
// address, another file or a rebuilt file at the same path gets a new one.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>

#include <filesystem>
#include <string>
#include <vector>

#include "symbolizer_reuse.hpp"

namespace firstrace {
namespace {

namespace fs = std::filesystem;

// A copy of the firstrace executable (a module with DWARF and data symbols) of this test's own.
struct ModuleCopy {
    fs::path path;
    ModuleCopy() {
        path = fs::temp_directory_path() / ("symbolizer-reuse-" + std::to_string(::getpid()));
        fs::copy_file(FIRSTRACE_BINARY, path, fs::copy_options::overwrite_existing);
    }
    ~ModuleCopy() {
        std::error_code ignored;
        fs::remove(path, ignored);
    }
    LoadedModule at(std::uint64_t bias) const {
        return {bias, bias + 0x1000, bias + fs::file_size(path), path.string()};
    }
};

std::vector<std::string> names(const std::vector<DataSymbol>& symbols) {
    std::vector<std::string> out;
    out.reserve(symbols.size());
    for (const auto& s : symbols)
        out.push_back(s.name + "@" + std::to_string(s.lo) + "+" + std::to_string(s.hi - s.lo));
    return out;
}

TEST(ReusedSymbolizer, SameModulesShareOneSymbolizerWithFreshAnswers) {
    const ModuleCopy copy;
    const std::vector<LoadedModule> modules{copy.at(0x5555'0000'0000)};
    std::vector<std::string> first;
    {
        ReusedSymbolizer a(modules);
        first = names(a.data_symbols());
    }
    ASSERT_FALSE(first.empty());
    ReusedSymbolizer b(modules);
    EXPECT_TRUE(b.reused());
    EXPECT_EQ(names(b.data_symbols()), first);
    Symbolizer fresh(modules);
    EXPECT_EQ(names(fresh.data_symbols()), first);
    EXPECT_EQ(b.data_types().size(), fresh.data_types().size());
}

TEST(ReusedSymbolizer, OtherAddressesOrARebuiltFileGetANewOne) {
    const ModuleCopy copy;
    { ReusedSymbolizer a({copy.at(0x5555'0000'0000)}); }
    {
        ReusedSymbolizer moved({copy.at(0x5566'0000'0000)});
        EXPECT_FALSE(moved.reused());
    }
    {
        ReusedSymbolizer again({copy.at(0x5566'0000'0000)});
        EXPECT_TRUE(again.reused());
    }
    // The same path rebuilt: another modification time (and here the same size).
    const auto when = fs::last_write_time(copy.path);
    fs::last_write_time(copy.path, when + std::chrono::seconds(5));
    ReusedSymbolizer rebuilt({copy.at(0x5566'0000'0000)});
    EXPECT_FALSE(rebuilt.reused());
}

TEST(ReusedSymbolizer, TwoTracesAtOnceGetTwoSymbolizers) {
    const ModuleCopy copy;
    const std::vector<LoadedModule> modules{copy.at(0x5555'0000'0000)};
    { ReusedSymbolizer a(modules); }
    ReusedSymbolizer first(modules);
    ReusedSymbolizer second(modules);
    EXPECT_TRUE(first.reused());
    EXPECT_FALSE(second.reused());
    EXPECT_NE(&first.symbolizer(), &second.symbolizer());
}

} // namespace
} // namespace firstrace
