// Post-mortem symbolization of program counters recorded by the tracer: elfutils libdwfl over
// the modules (path + load bias) listed in the trace metadata. PC -> function (innermost
// inlined function when DWARF says so), file, line, column.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "firstrace/model.hpp"
#include "firstrace/trace_metadata.hpp"

namespace firstrace {

class Symbolizer {
  public:
    explicit Symbolizer(const std::vector<LoadedModule>& modules);
    ~Symbolizer();
    Symbolizer(const Symbolizer&) = delete;
    Symbolizer& operator=(const Symbolizer&) = delete;

    // `return_address` is a return address (the tracer records those): the call instruction
    // before it is what is looked up. Fills file/line/column/function; pc is kept.
    SourceLocation resolve(std::uint64_t return_address);

    // The data objects (STT_OBJECT symbols with a size) of every module, at run-time addresses,
    // sorted and without overlaps: names for the addresses of global and static variables.
    std::vector<DataSymbol> data_symbols();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace firstrace
