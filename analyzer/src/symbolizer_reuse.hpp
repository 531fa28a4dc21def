// The symbolizer of the last trace read, lent to the next trace of the same modules. The fork
// children of a recording run their parent's modules at the parent's addresses, and
// `firstrace analyze DIR` reads every process trace of DIR: a program that forks a thousand
// times had its DWARF read a thousand times over (0.1 s each), so that the analysis outlasted
// any harness' timeout.
#pragma once

#include <memory>
#include <vector>

#include "firstrace/model.hpp"
#include "firstrace/trace_metadata.hpp"
#include "symbolizer.hpp"

namespace firstrace {

// One trace's use of a symbolizer: the one kept from the previous trace when the modules are the
// same files (path, device, inode, size, modification time) at the same addresses, else a new
// one; handed back for the next trace when this object ends. One is kept per analyzer process;
// a second trace read at the same time (the browser's loader thread) gets a symbolizer of its
// own.
class ReusedSymbolizer {
  public:
    explicit ReusedSymbolizer(const std::vector<LoadedModule>& modules);
    ~ReusedSymbolizer();
    ReusedSymbolizer(const ReusedSymbolizer&) = delete;
    ReusedSymbolizer& operator=(const ReusedSymbolizer&) = delete;

    Symbolizer& symbolizer();
    // Symbolizer::data_symbols() and data_types(), computed once per symbolizer.
    const std::vector<DataSymbol>& data_symbols();
    const std::vector<DataType>& data_types();
    // True when this trace got the previous trace's symbolizer (tests).
    bool reused() const { return reused_; }

    struct Kept; // the symbolizer, what identifies its modules, its data symbols

  private:
    std::unique_ptr<Kept> kept_;
    bool reused_ = false;
};

} // namespace firstrace
