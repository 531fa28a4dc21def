#include "symbolizer_reuse.hpp"

#include <sys/stat.h>

#include <mutex>
#include <optional>
#include <tuple>

namespace firstrace {

namespace {

// A module as the symbolizer read it: where it was mapped and which file it was. A rebuilt
// binary at the same path (the browser stays open across builds) is another file.
struct ModuleIdentity {
    LoadedModule module;
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = 0;
    struct timespec modified {};

    bool operator==(const ModuleIdentity& o) const {
        return std::tie(module.bias, module.lo, module.hi, module.path, device, inode, size,
                        modified.tv_sec, modified.tv_nsec) ==
               std::tie(o.module.bias, o.module.lo, o.module.hi, o.module.path, o.device, o.inode,
                        o.size, o.modified.tv_sec, o.modified.tv_nsec);
    }
};

std::vector<ModuleIdentity> identify(const std::vector<LoadedModule>& modules) {
    std::vector<ModuleIdentity> out;
    out.reserve(modules.size());
    for (const auto& m : modules) {
        ModuleIdentity id{m};
        struct stat st {};
        if (::stat(m.path.c_str(), &st) == 0) {
            id.device = st.st_dev;
            id.inode = st.st_ino;
            id.size = st.st_size;
            id.modified = st.st_mtim;
        }
        out.push_back(std::move(id));
    }
    return out;
}

} // namespace

struct ReusedSymbolizer::Kept {
    std::vector<ModuleIdentity> modules;
    Symbolizer symbolizer;
    std::optional<std::vector<DataSymbol>> data_symbols;
    std::vector<DataType> data_types;

    Kept(std::vector<ModuleIdentity> ids, const std::vector<LoadedModule>& loaded)
        : modules(std::move(ids)), symbolizer(loaded) {}
};

namespace {

std::mutex kept_mutex;
std::unique_ptr<ReusedSymbolizer::Kept>& kept_slot() {
    static std::unique_ptr<ReusedSymbolizer::Kept> slot;
    return slot;
}

} // namespace

ReusedSymbolizer::ReusedSymbolizer(const std::vector<LoadedModule>& modules) {
    std::vector<ModuleIdentity> ids = identify(modules);
    {
        const std::lock_guard<std::mutex> lock(kept_mutex);
        if (auto& slot = kept_slot(); slot && slot->modules == ids) {
            kept_ = std::move(slot);
            reused_ = true;
            return;
        }
    }
    kept_ = std::make_unique<Kept>(std::move(ids), modules);
}

ReusedSymbolizer::~ReusedSymbolizer() {
    const std::lock_guard<std::mutex> lock(kept_mutex);
    kept_slot() = std::move(kept_); // the older one, if any, is released
}

Symbolizer& ReusedSymbolizer::symbolizer() {
    return kept_->symbolizer;
}

const std::vector<DataSymbol>& ReusedSymbolizer::data_symbols() {
    if (!kept_->data_symbols) {
        kept_->data_symbols = kept_->symbolizer.data_symbols();
        kept_->data_types = kept_->symbolizer.data_types();
    }
    return *kept_->data_symbols;
}

const std::vector<DataType>& ReusedSymbolizer::data_types() {
    data_symbols();
    return kept_->data_types;
}

} // namespace firstrace
