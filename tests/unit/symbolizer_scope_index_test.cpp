// The symbolizer's per-unit scope index (symbolizer_scope_index.hpp) against libdw's own walk
// (dwarf_getscopes + dwarf_getscopes_die per address, ScopeSearch::Libdw): every frame of
// every address sampled across the code of the firstrace executable (C++ at -O2 with -g, deeply
// inlined) must be the same, function names, files, lines, columns and inlined calls alike.
#include <elf.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "symbolizer.hpp"

namespace firstrace {
namespace {

// The executable PT_LOAD segments of an ELF64 file: [vaddr, vaddr + memsz).
std::vector<Interval> code_segments(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    Elf64_Ehdr header{};
    in.read(reinterpret_cast<char*>(&header), sizeof header);
    std::vector<Interval> out;
    for (int i = 0; in && i < header.e_phnum; ++i) {
        Elf64_Phdr ph{};
        in.seekg(static_cast<std::streamoff>(header.e_phoff + i * sizeof ph));
        in.read(reinterpret_cast<char*>(&ph), sizeof ph);
        if (in && ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
            out.push_back({ph.p_vaddr, ph.p_vaddr + ph.p_memsz});
    }
    return out;
}

std::string describe(const std::vector<SourceLocation>& frames) {
    std::string out;
    for (const SourceLocation& f : frames)
        out += f.function + " at " + f.file + ":" + std::to_string(f.line) + ":" +
               std::to_string(f.column) + " | ";
    return out;
}

TEST(SymbolizerScopeIndex, SameFramesAsLibdwWalk) {
    const std::string binary = FIRSTRACE_BINARY;
    const std::vector<Interval> code = code_segments(binary);
    ASSERT_FALSE(code.empty()) << binary;
    // Loaded at an address of its own, as a PIE is: pcs are run-time addresses.
    const std::uint64_t bias = 0x5555'0000'0000;
    LoadedModule module{bias, bias + code.front().lo, bias + code.back().hi, binary};
    Symbolizer indexed({module}, ScopeSearch::Indexed);
    Symbolizer walked({module}, ScopeSearch::Libdw);
    std::size_t addresses = 0, inlined = 0, named = 0;
    for (const Interval& segment : code) {
        // About 1500 addresses per segment, at an odd stride so that instructions of every
        // alignment are hit; each is a return address (the symbolizer looks at address - 1).
        const std::uint64_t stride = ((segment.hi - segment.lo) / 1500) | 1;
        for (std::uint64_t a = segment.lo + 1; a < segment.hi; a += stride) {
            const std::vector<SourceLocation> got = indexed.resolve_frames(bias + a);
            const std::vector<SourceLocation> want = walked.resolve_frames(bias + a);
            ASSERT_EQ(describe(got), describe(want)) << "address 0x" << std::hex << a;
            for (std::size_t f = 0; f < got.size(); ++f)
                ASSERT_EQ(got[f].pc, want[f].pc);
            ++addresses;
            inlined += got.size() > 1;
            named += !got.front().file.empty();
        }
    }
    // Not vacuous: most addresses have debug information, many are in inlined code.
    EXPECT_GT(addresses, 1200u);
    EXPECT_GT(named, addresses / 2);
    EXPECT_GT(inlined, addresses / 10);
}

} // namespace
} // namespace firstrace
