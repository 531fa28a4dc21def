// Post-mortem symbolization of program counters recorded by the tracer: elfutils libdwfl over
// the modules (path + load bias) listed in the trace metadata. PC -> function (innermost
// inlined function when DWARF says so), file, line, column, and the chain of inlined calls.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "firstrace/model.hpp"
#include "firstrace/trace_metadata.hpp"

namespace firstrace {

// How the DWARF scopes of an address are found: from an index of each compilation unit built
// once (symbolizer_scope_index.hpp), or by libdw's walk of the unit per address (the reference
// the index is tested against; quadratic on large units).
enum class ScopeSearch { Indexed, Libdw };

class Symbolizer {
  public:
    explicit Symbolizer(const std::vector<LoadedModule>& modules,
                        ScopeSearch search = ScopeSearch::Indexed);
    ~Symbolizer();
    Symbolizer(const Symbolizer&) = delete;
    Symbolizer& operator=(const Symbolizer&) = delete;

    // `return_address` is a return address (the tracer records those): the call instruction
    // before it is what is looked up. The frames at `return_address`, innermost first: the location
    // of the instruction in the innermost inlined function, then for each inlined call the location
    // of that call in the function it was inlined into (DW_AT_call_file / DW_AT_call_line), up to
    // the function the code belongs to. One element when nothing is inlined there. Paths are
    // canonical (absolute, lexically normal).
    std::vector<SourceLocation> resolve_frames(std::uint64_t return_address);

    // True when the address lies in the firstrace runtime (libfirstrace_rt.so): its frames
    // (the thread start wrapper, interceptors) are no part of the program's stacks.
    bool in_runtime(std::uint64_t address) const;

    // The data objects (STT_OBJECT symbols with a size) of every module, at run-time addresses,
    // sorted and without overlaps: names for the addresses of global and static variables.
    // DataSymbol::type is set when a module's DWARF describes the variable at that address
    // (DW_TAG_variable located by DW_OP_addr, of the symbol's size); the types are then in
    // data_types().
    std::vector<DataSymbol> data_symbols();
    // The types data_symbols() refers to (valid after it was called).
    std::vector<DataType> data_types() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace firstrace
