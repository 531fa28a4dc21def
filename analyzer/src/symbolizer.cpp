#include "symbolizer.hpp"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unordered_map>

namespace firstrace {

namespace {

std::string demangle(const char* name) {
    if (name == nullptr) return {};
    if (name[0] == '_' && name[1] == 'Z') {
        int status = 0;
        char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
        if (status == 0 && d != nullptr) {
            std::string out = d;
            std::free(d);
            return out;
        }
        std::free(d);
    }
    return name;
}

std::string base_name(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Name of a subprogram or inlined-subroutine DIE: the demangled linkage name when there is
// one (qualified C++ names), else the plain name.
std::string die_function_name(Dwarf_Die* die) {
    Dwarf_Attribute attr;
    const char* linkage = nullptr;
    if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) != nullptr ||
        dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr) != nullptr)
        linkage = dwarf_formstring(&attr);
    if (linkage != nullptr) return demangle(linkage);
    const char* name = dwarf_diename(die);
    return name ? name : std::string();
}

// An absolute, lexically normal path: `/usr/bin/../lib/gcc/.../../../../include/c++/12/x.h`
// becomes `/usr/include/c++/12/x.h`. Relative names (a CU without comp_dir) stay relative.
std::string canonical_path(const char* file) {
    if (file == nullptr || *file == '\0') return {};
    return std::filesystem::path(file).lexically_normal().string();
}

// Address ranges of every compilation unit of a module, sorted: clang emits no
// .debug_aranges, and then dwfl_module_addrdie finds nothing.
struct CuRange {
    Dwarf_Addr lo;
    Dwarf_Addr hi;
    Dwarf_Off die_offset;
};

std::vector<CuRange> cu_ranges(Dwarf* dwarf) {
    std::vector<CuRange> out;
    Dwarf_Off offset = 0, next = 0;
    std::size_t header_size = 0;
    while (dwarf_nextcu(dwarf, offset, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
        Dwarf_Die cu;
        if (dwarf_offdie(dwarf, offset + header_size, &cu) != nullptr) {
            Dwarf_Addr base = 0, lo = 0, hi = 0;
            ptrdiff_t it = 0;
            while ((it = dwarf_ranges(&cu, it, &base, &lo, &hi)) > 0)
                if (lo < hi) out.push_back({lo, hi, offset + header_size});
        }
        offset = next;
    }
    std::sort(out.begin(), out.end(),
              [](const CuRange& a, const CuRange& b) { return a.lo < b.lo; });
    return out;
}

} // namespace

struct Symbolizer::Impl {
    Dwfl_Callbacks callbacks{};
    Dwfl* dwfl = nullptr;
    std::vector<LoadedModule> modules;
    std::unordered_map<Dwfl_Module*, std::vector<CuRange>> cus; // built on first need

    Dwarf_Die* find_cu(Dwfl_Module* mod, Dwarf_Addr addr, Dwarf_Addr& bias, Dwarf_Die& storage) {
        Dwarf* dwarf = dwfl_module_getdwarf(mod, &bias);
        if (dwarf == nullptr) return nullptr;
        auto [it, inserted] = cus.try_emplace(mod);
        if (inserted) it->second = cu_ranges(dwarf);
        const auto& ranges = it->second;
        const Dwarf_Addr a = addr - bias;
        auto r = std::upper_bound(ranges.begin(), ranges.end(), a,
                                  [](Dwarf_Addr x, const CuRange& c) { return x < c.lo; });
        for (int back = 0; r != ranges.begin() && back < 64; ++back) { // ranges may overlap
            --r;
            if (a >= r->lo && a < r->hi) return dwarf_offdie(dwarf, r->die_offset, &storage);
        }
        return nullptr;
    }
    std::unordered_map<std::uint64_t, SourceLocation> cache;
};

Symbolizer::Symbolizer(const std::vector<LoadedModule>& modules) : impl_(std::make_unique<Impl>()) {
    impl_->modules = modules;
    impl_->callbacks.find_elf = dwfl_build_id_find_elf;
    impl_->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
    impl_->callbacks.section_address = dwfl_offline_section_address;
    impl_->dwfl = dwfl_begin(&impl_->callbacks);
    if (impl_->dwfl == nullptr) return;
    dwfl_report_begin(impl_->dwfl);
    for (const auto& m : modules)
        dwfl_report_elf(impl_->dwfl, base_name(m.path).c_str(), m.path.c_str(), -1, m.bias, false);
    dwfl_report_end(impl_->dwfl, nullptr, nullptr);
}

std::vector<DataSymbol> Symbolizer::data_symbols() {
    std::vector<DataSymbol> out;
    if (impl_->dwfl == nullptr) return out;
    auto collect = [](Dwfl_Module* mod, void**, const char*, Dwarf_Addr, void* arg) -> int {
        auto& symbols = *static_cast<std::vector<DataSymbol>*>(arg);
        const int n = dwfl_module_getsymtab(mod);
        for (int i = 1; i < n; ++i) {
            GElf_Sym sym;
            GElf_Addr addr = 0;
            const char* name =
                dwfl_module_getsym_info(mod, i, &sym, &addr, nullptr, nullptr, nullptr);
            if (name == nullptr || *name == '\0' || GELF_ST_TYPE(sym.st_info) != STT_OBJECT ||
                sym.st_size == 0)
                continue;
            symbols.push_back({addr, addr + sym.st_size, demangle(name)});
        }
        return DWARF_CB_OK;
    };
    dwfl_getmodules(impl_->dwfl, collect, &out, 0);
    std::sort(out.begin(), out.end(), [](const DataSymbol& a, const DataSymbol& b) {
        return a.lo != b.lo ? a.lo < b.lo : a.hi > b.hi;
    });
    // Keep the outermost of overlapping symbols (aliases and nested objects).
    std::vector<DataSymbol> disjoint;
    for (auto& sym : out)
        if (disjoint.empty() || sym.lo >= disjoint.back().hi) disjoint.push_back(std::move(sym));
    return disjoint;
}

Symbolizer::~Symbolizer() {
    if (impl_->dwfl != nullptr) dwfl_end(impl_->dwfl);
}

SourceLocation Symbolizer::resolve(std::uint64_t return_address) {
    auto cached = impl_->cache.find(return_address);
    if (cached != impl_->cache.end()) return cached->second;
    SourceLocation loc;
    loc.pc = return_address;
    const Dwarf_Addr addr = return_address - 1; // inside the call instruction
    Dwfl_Module* mod = impl_->dwfl ? dwfl_addrmodule(impl_->dwfl, addr) : nullptr;
    if (mod != nullptr) {
        Dwarf_Addr bias = 0;
        Dwarf_Die cu_storage;
        Dwarf_Die* cu = dwfl_module_addrdie(mod, addr, &bias);
        if (cu == nullptr) cu = impl_->find_cu(mod, addr, bias, cu_storage);
        if (cu != nullptr) {
            if (Dwarf_Line* line = dwarf_getsrc_die(cu, addr - bias)) {
                int lineno = 0, column = 0;
                dwarf_lineno(line, &lineno);
                dwarf_linecol(line, &column);
                loc.file = canonical_path(dwarf_linesrc(line, nullptr, nullptr));
                loc.line = lineno > 0 ? static_cast<std::uint32_t>(lineno) : 0;
                loc.column = column > 0 ? static_cast<std::uint32_t>(column) : 0;
            }
            Dwarf_Die* scopes = nullptr;
            const int n = dwarf_getscopes(cu, addr - bias, &scopes);
            for (int i = 0; i < n; ++i) {
                const int tag = dwarf_tag(&scopes[i]);
                if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
                    loc.function = die_function_name(&scopes[i]);
                    if (!loc.function.empty()) break;
                }
            }
            std::free(scopes);
        }
        if (loc.function.empty()) {
            GElf_Off offset = 0;
            GElf_Sym sym;
            const char* name =
                dwfl_module_addrinfo(mod, addr, &offset, &sym, nullptr, nullptr, nullptr);
            if (name != nullptr) loc.function = demangle(name);
        }
    }
    if (loc.function.empty() && loc.file.empty()) {
        // No symbols: name the module and offset so that reports still say something useful.
        for (const auto& m : impl_->modules) {
            if (return_address >= m.lo && return_address < m.hi) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "+0x%llx",
                              static_cast<unsigned long long>(addr - m.bias));
                loc.function = base_name(m.path) + buf;
                break;
            }
        }
    }
    impl_->cache.emplace(return_address, loc);
    return loc;
}

bool Symbolizer::in_runtime(std::uint64_t address) const {
    for (const auto& m : impl_->modules)
        if (address >= m.lo && address < m.hi)
            return base_name(m.path).rfind("libfirstrace_rt", 0) == 0;
    return false;
}

std::vector<SourceLocation> Symbolizer::resolve_frames(std::uint64_t return_address) {
    std::vector<SourceLocation> frames{resolve(return_address)};
    const Dwarf_Addr addr = return_address - 1;
    Dwfl_Module* mod = impl_->dwfl ? dwfl_addrmodule(impl_->dwfl, addr) : nullptr;
    if (mod == nullptr) return frames;
    Dwarf_Addr bias = 0;
    Dwarf_Die cu_storage;
    Dwarf_Die* cu = dwfl_module_addrdie(mod, addr, &bias);
    if (cu == nullptr) cu = impl_->find_cu(mod, addr, bias, cu_storage);
    if (cu == nullptr) return frames;
    Dwarf_Files* files = nullptr;
    std::size_t nfiles = 0;
    if (dwarf_getsrcfiles(cu, &files, &nfiles) != 0) files = nullptr;
    Dwarf_Die* scopes = nullptr;
    const int n = dwarf_getscopes(cu, addr - bias, &scopes);
    // scopes[0..n) run from the innermost scope outwards. Each inlined subroutine is a call
    // made in the next enclosing function scope (inlined subroutine or subprogram).
    for (int i = 0; i < n; ++i) {
        if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine) continue;
        SourceLocation call;
        call.pc = return_address;
        Dwarf_Attribute attr;
        Dwarf_Word value = 0;
        if (files != nullptr && dwarf_attr(&scopes[i], DW_AT_call_file, &attr) != nullptr &&
            dwarf_formudata(&attr, &value) == 0 && value < nfiles)
            call.file = canonical_path(dwarf_filesrc(files, value, nullptr, nullptr));
        if (dwarf_attr(&scopes[i], DW_AT_call_line, &attr) != nullptr &&
            dwarf_formudata(&attr, &value) == 0)
            call.line = static_cast<std::uint32_t>(value);
        if (dwarf_attr(&scopes[i], DW_AT_call_column, &attr) != nullptr &&
            dwarf_formudata(&attr, &value) == 0)
            call.column = static_cast<std::uint32_t>(value);
        for (int j = i + 1; j < n; ++j) {
            const int tag = dwarf_tag(&scopes[j]);
            if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
                call.function = die_function_name(&scopes[j]);
                if (!call.function.empty()) break;
            }
        }
        frames.push_back(std::move(call));
    }
    std::free(scopes);
    return frames;
}

} // namespace firstrace
