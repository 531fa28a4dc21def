#include "symbolizer.hpp"

#include <unistd.h>

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unordered_map>

#include "firstrace/errors.hpp"
#include "input_file.hpp"
#include "symbolizer_scope_index.hpp"

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

// DWARF types as DataType entries, memoized by DIE offset within one module (DataType
// indices are shared by all modules of a symbolizer).
class TypeTable {
  public:
    explicit TypeTable(std::vector<DataType>& types) : types_(types) {}

    std::uint32_t of(Dwarf_Die* die, int depth = 0) {
        Dwarf_Die peeled;
        if (dwarf_peel_type(die, &peeled) != 0) return kNone;
        const Dwarf_Off key = dwarf_dieoffset(&peeled);
        if (auto it = known_.find(key); it != known_.end()) return it->second;
        if (depth > 16 || types_.size() > kMaxTypes) return kNone;
        const auto id = static_cast<std::uint32_t>(types_.size());
        known_.emplace(key, id); // before the members: a corrupt DIE graph must not recurse
        types_.emplace_back();
        DataType t;
        Dwarf_Word size = 0;
        if (dwarf_aggregate_size(&peeled, &size) == 0) t.size = size;
        const int tag = dwarf_tag(&peeled);
        if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type) {
            t.kind = DataType::Kind::Record;
            Dwarf_Die child;
            if (dwarf_child(&peeled, &child) == 0) do {
                    const int ctag = dwarf_tag(&child);
                    if (ctag != DW_TAG_member && ctag != DW_TAG_inheritance) continue;
                    if (dwarf_hasattr(&child, DW_AT_external) ||
                        dwarf_hasattr(&child, DW_AT_declaration))
                        continue; // static members live elsewhere
                    if (dwarf_hasattr(&child, DW_AT_data_bit_offset) ||
                        dwarf_hasattr(&child, DW_AT_bit_size))
                        continue; // bit fields share bytes: name the enclosing record
                    DataMember m;
                    Dwarf_Attribute attr;
                    Dwarf_Word offset = 0;
                    if (dwarf_attr(&child, DW_AT_data_member_location, &attr) != nullptr &&
                        dwarf_formudata(&attr, &offset) != 0)
                        continue; // a location expression (virtual bases): no fixed offset
                    m.offset = offset;
                    if (ctag == DW_TAG_member) {
                        const char* n = dwarf_diename(&child);
                        if (n != nullptr) m.name = n;
                    }
                    Dwarf_Die mt;
                    if (dwarf_attr(&child, DW_AT_type, &attr) == nullptr ||
                        dwarf_formref_die(&attr, &mt) == nullptr)
                        continue;
                    m.type = of(&mt, depth + 1);
                    if (m.type != kNone) t.members.push_back(std::move(m));
                } while (dwarf_siblingof(&child, &child) == 0);
        } else if (tag == DW_TAG_array_type) {
            // Dimensions outermost first: int a[2][3] is an array of 2 arrays of 3 ints.
            std::vector<std::uint64_t> counts;
            Dwarf_Die child;
            if (dwarf_child(&peeled, &child) == 0) do {
                    if (dwarf_tag(&child) != DW_TAG_subrange_type) continue;
                    Dwarf_Attribute attr;
                    Dwarf_Word n = 0;
                    if (dwarf_attr(&child, DW_AT_count, &attr) != nullptr &&
                        dwarf_formudata(&attr, &n) == 0)
                        counts.push_back(n);
                    else if (dwarf_attr(&child, DW_AT_upper_bound, &attr) != nullptr &&
                             dwarf_formudata(&attr, &n) == 0)
                        counts.push_back(n + 1);
                    else
                        counts.push_back(0); // flexible array member
                } while (dwarf_siblingof(&child, &child) == 0);
            Dwarf_Attribute attr;
            Dwarf_Die et;
            std::uint32_t element = kNone;
            if (dwarf_attr(&peeled, DW_AT_type, &attr) != nullptr &&
                dwarf_formref_die(&attr, &et) != nullptr)
                element = of(&et, depth + 1);
            for (std::size_t i = counts.size(); i-- > 1 && element != kNone;) {
                DataType inner;
                inner.kind = DataType::Kind::Array;
                inner.element = element;
                inner.count = counts[i];
                inner.size = counts[i] * types_[element].size;
                element = static_cast<std::uint32_t>(types_.size());
                types_.push_back(std::move(inner));
            }
            t.kind = DataType::Kind::Array;
            t.element = element;
            t.count = counts.empty() ? 0 : counts[0];
        }
        types_[id] = std::move(t);
        return id;
    }

  private:
    static constexpr std::size_t kMaxTypes = 1u << 20;
    std::vector<DataType>& types_;
    std::unordered_map<Dwarf_Off, std::uint32_t> known_;
};

// The DWARF variables of one module with a static address: run-time address -> (size, type).
struct DwarfVariable {
    std::uint32_t type;
};

// The file address of a location expression that is one static address: DW_OP_addr (gcc,
// DWARF 4), DW_OP_addrx / DW_OP_GNU_addr_index into .debug_addr (clang, DWARF 5).
bool static_address(Dwarf_Attribute* location, const Dwarf_Op& op, Dwarf_Addr& address) {
    if (op.atom == DW_OP_addr) {
        address = op.number;
        return true;
    }
    if (op.atom == DW_OP_addrx || op.atom == DW_OP_GNU_addr_index) {
        Dwarf_Attribute indexed;
        return dwarf_getlocation_attr(location, &op, &indexed) == 0 &&
               dwarf_formaddr(&indexed, &address) == 0;
    }
    return false;
}

void collect_variables(Dwarf_Die* die, Dwarf_Addr bias, TypeTable& types,
                       std::unordered_map<std::uint64_t, DwarfVariable>& out, std::size_t& budget,
                       int depth) {
    Dwarf_Die child;
    if (depth > 32 || dwarf_child(die, &child) != 0) return;
    do {
        if (budget == 0) return;
        --budget;
        const int tag = dwarf_tag(&child);
        if (tag == DW_TAG_variable && !dwarf_hasattr(&child, DW_AT_declaration)) {
            Dwarf_Attribute attr;
            Dwarf_Op* ops = nullptr;
            std::size_t nops = 0;
            Dwarf_Die type_die;
            Dwarf_Addr address = 0;
            if (dwarf_attr(&child, DW_AT_location, &attr) != nullptr &&
                dwarf_getlocation(&attr, &ops, &nops) == 0 && nops == 1 &&
                static_address(&attr, ops[0], address) &&
                dwarf_attr_integrate(&child, DW_AT_type, &attr) != nullptr &&
                dwarf_formref_die(&attr, &type_die) != nullptr) {
                const std::uint32_t type = types.of(&type_die);
                if (type != kNone) out[address + bias] = {type};
            }
        } else if (tag == DW_TAG_namespace || tag == DW_TAG_subprogram ||
                   tag == DW_TAG_lexical_block || tag == DW_TAG_structure_type ||
                   tag == DW_TAG_class_type) {
            // Static members (class scope), function-local statics, namespaces.
            collect_variables(&child, bias, types, out, budget, depth + 1);
        }
    } while (dwarf_siblingof(&child, &child) == 0);
}

} // namespace

struct Symbolizer::Impl {
    std::vector<DataType> types; // data_types()
    Dwfl_Callbacks callbacks{};
    Dwfl* dwfl = nullptr;
    std::vector<LoadedModule> modules;
    ScopeSearch search = ScopeSearch::Indexed;
    std::unordered_map<Dwfl_Module*, std::vector<CuRange>> cus; // built on first need
    // Per compilation unit (Dwarf_CU), built when one of its addresses is first looked up.
    std::unordered_map<const void*, std::unique_ptr<ScopeIndex>> scope_indexes;
    std::vector<std::uint32_t> path; // scratch: ScopeIndex::containing

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

    // The scopes of a file address in a unit, innermost first. `lookup` is what
    // dwarf_getscopes gives: the scopes up to the innermost inlined subroutine, then those
    // enclosing its abstract origin. `concrete` is what dwarf_getscopes_die gives for the
    // innermost: every DIE containing it, up to the unit. False when dwarf_getscopes finds
    // nothing. Answered from the unit's ScopeIndex, or by libdw itself (ScopeSearch::Libdw,
    // or a unit the index cannot follow): the same DIEs either way.
    bool scopes(Dwarf_Die* cu, Dwarf_Addr address, std::vector<Dwarf_Die>& lookup,
                std::vector<Dwarf_Die>& concrete) {
        lookup.clear();
        concrete.clear();
        const ScopeIndex* index = nullptr;
        if (search == ScopeSearch::Indexed) {
            auto [it, inserted] = scope_indexes.try_emplace(cu->cu);
            if (inserted) it->second = std::make_unique<ScopeIndex>(cu);
            if (it->second->usable()) index = it->second.get();
        }
        if (index == nullptr) {
            Dwarf_Die* found = nullptr;
            const int n = dwarf_getscopes(cu, address, &found);
            if (n > 0) lookup.assign(found, found + n);
            std::free(found);
            if (n <= 0) return false;
            Dwarf_Die* chain = nullptr;
            const int m = dwarf_getscopes_die(&lookup[0], &chain);
            if (m > 0) concrete.assign(chain, chain + m);
            std::free(chain);
            return true;
        }
        index->containing(address, path);
        if (path.empty()) return false;
        std::size_t inlined = path.size(); // the innermost inlined subroutine
        for (std::size_t i = 0; i < path.size(); ++i) {
            concrete.emplace_back();
            if (!index->die(path[i], concrete.back())) return false;
            if (inlined == path.size() && index->node(path[i]).tag == DW_TAG_inlined_subroutine)
                inlined = i;
        }
        if (inlined == path.size()) {
            lookup = concrete;
            return true;
        }
        lookup.assign(concrete.begin(),
                      concrete.begin() + static_cast<std::ptrdiff_t>(inlined) + 1);
        Dwarf_Attribute attr;
        Dwarf_Die origin;
        if (dwarf_attr(&concrete[inlined], DW_AT_abstract_origin, &attr) == nullptr ||
            dwarf_formref_die(&attr, &origin) == nullptr)
            return false;
        const std::uint32_t node = index->find(dwarf_dieoffset(&origin));
        Dwarf_Die check;
        if (node == ScopeIndex::kNoNode || !index->die(node, check) || check.addr != origin.addr)
            return false; // libdw's walk does not reach the abstract origin either
        for (std::uint32_t p = index->node(node).parent; p != ScopeIndex::kNoNode;
             p = index->node(p).parent) {
            lookup.emplace_back();
            if (!index->die(p, lookup.back())) return false;
        }
        return true;
    }
};

Symbolizer::Symbolizer(const std::vector<LoadedModule>& modules, ScopeSearch search)
    : impl_(std::make_unique<Impl>()) {
    impl_->modules = modules;
    impl_->search = search;
    impl_->callbacks.find_elf = dwfl_build_id_find_elf;
    impl_->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
    impl_->callbacks.section_address = dwfl_offline_section_address;
    impl_->dwfl = dwfl_begin(&impl_->callbacks);
    if (impl_->dwfl == nullptr) return;
    dwfl_report_begin(impl_->dwfl);
    for (const auto& m : modules) {
        // The trace names the modules: opened here only when they are regular files (libdw
        // would open a FIFO named in the metadata and wait forever, issue 13); one that is not
        // is left out, as a binary that no longer exists is, and its pcs stay unknown.
        int fd = -1;
        try {
            fd = ::dup(RegularFile(m.path, Symlinks::Follow).fd());
        } catch (const InputError&) {
            continue;
        }
        if (fd < 0) continue;
        // On success libdw owns the descriptor; on failure it is still ours.
        if (dwfl_report_elf(impl_->dwfl, base_name(m.path).c_str(), m.path.c_str(), fd, m.bias,
                            false) == nullptr)
            ::close(fd);
    }
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
    // Types of the variables the DWARF of each module locates at a static address.
    struct Walk {
        std::vector<DataType>* types;
        std::unordered_map<std::uint64_t, DwarfVariable> variables;
    } walk{&impl_->types, {}};
    auto variables = [](Dwfl_Module* mod, void**, const char*, Dwarf_Addr, void* arg) -> int {
        auto& w = *static_cast<Walk*>(arg);
        Dwarf_Addr bias = 0;
        Dwarf* dwarf = dwfl_module_getdwarf(mod, &bias);
        if (dwarf == nullptr) return DWARF_CB_OK;
        TypeTable table(*w.types);
        std::size_t budget = 4u << 20; // DIEs visited per module: large debug info stays cheap
        Dwarf_Off offset = 0, next = 0;
        std::size_t header_size = 0;
        while (budget > 0 &&
               dwarf_nextcu(dwarf, offset, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
            Dwarf_Die cu;
            if (dwarf_offdie(dwarf, offset + header_size, &cu) != nullptr)
                collect_variables(&cu, bias, table, w.variables, budget, 0);
            offset = next;
        }
        return DWARF_CB_OK;
    };
    dwfl_getmodules(impl_->dwfl, variables, &walk, 0);
    for (DataSymbol& sym : out)
        if (auto it = walk.variables.find(sym.lo);
            it != walk.variables.end() && impl_->types[it->second.type].size == sym.hi - sym.lo)
            sym.type = it->second.type;
    std::sort(out.begin(), out.end(), [](const DataSymbol& a, const DataSymbol& b) {
        return a.lo != b.lo ? a.lo < b.lo : a.hi > b.hi;
    });
    // Keep the outermost of overlapping symbols (aliases and nested objects).
    std::vector<DataSymbol> disjoint;
    for (auto& sym : out)
        if (disjoint.empty() || sym.lo >= disjoint.back().hi) disjoint.push_back(std::move(sym));
    return disjoint;
}

std::vector<DataType> Symbolizer::data_types() const {
    return impl_->types;
}

Symbolizer::~Symbolizer() {
    if (impl_->dwfl != nullptr) dwfl_end(impl_->dwfl);
}

bool Symbolizer::in_runtime(std::uint64_t address) const {
    for (const auto& m : impl_->modules)
        if (address >= m.lo && address < m.hi)
            return base_name(m.path).rfind("libfirstrace_rt", 0) == 0;
    return false;
}

std::vector<SourceLocation> Symbolizer::resolve_frames(std::uint64_t return_address) {
    std::vector<SourceLocation> frames(1);
    SourceLocation& loc = frames.front();
    loc.pc = return_address;
    const Dwarf_Addr addr = return_address - 1; // inside the call instruction
    Dwfl_Module* mod = impl_->dwfl ? dwfl_addrmodule(impl_->dwfl, addr) : nullptr;
    Dwarf_Addr bias = 0;
    Dwarf_Die cu_storage;
    Dwarf_Die* cu = nullptr;
    if (mod != nullptr) {
        cu = dwfl_module_addrdie(mod, addr, &bias);
        if (cu == nullptr) cu = impl_->find_cu(mod, addr, bias, cu_storage);
    }
    std::vector<Dwarf_Die> lookup, scopes;
    const bool found = cu != nullptr && impl_->scopes(cu, addr - bias, lookup, scopes);
    if (cu != nullptr) {
        if (Dwarf_Line* line = dwarf_getsrc_die(cu, addr - bias)) {
            int lineno = 0, column = 0;
            dwarf_lineno(line, &lineno);
            dwarf_linecol(line, &column);
            loc.file = canonical_path(dwarf_linesrc(line, nullptr, nullptr));
            loc.line = lineno > 0 ? static_cast<std::uint32_t>(lineno) : 0;
            loc.column = column > 0 ? static_cast<std::uint32_t>(column) : 0;
        }
        for (Dwarf_Die& scope : lookup) {
            const int tag = dwarf_tag(&scope);
            if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
                loc.function = die_function_name(&scope);
                if (!loc.function.empty()) break;
            }
        }
    }
    if (mod != nullptr && loc.function.empty()) {
        GElf_Off offset = 0;
        GElf_Sym sym;
        const char* name =
            dwfl_module_addrinfo(mod, addr, &offset, &sym, nullptr, nullptr, nullptr);
        if (name != nullptr) loc.function = demangle(name);
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
    if (!found) return frames;
    Dwarf_Files* files = nullptr;
    std::size_t nfiles = 0;
    if (dwarf_getsrcfiles(cu, &files, &nfiles) != 0) files = nullptr;
    // dwarf_getscopes leaves an inlined subroutine for the scopes of its abstract origin (where
    // the function is declared), so past the first inlined call the chain is not the calls that
    // inlined it: code inlined several levels deep (-O1/-O2 C++) lost every caller past the
    // first. The concrete scopes containing the innermost one (dwarf_getscopes_die, as
    // elfutils' `addr2line -i` does) are the whole chain of inlined calls.
    // scopes run from the innermost scope outwards. Each inlined subroutine is a call made in
    // the next enclosing function scope (inlined subroutine or subprogram).
    const std::size_t n = scopes.size();
    for (std::size_t i = 0; i < n; ++i) {
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
        for (std::size_t j = i + 1; j < n; ++j) {
            const int tag = dwarf_tag(&scopes[j]);
            if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
                call.function = die_function_name(&scopes[j]);
                if (!call.function.empty()) break;
            }
        }
        frames.push_back(std::move(call));
    }
    return frames;
}

} // namespace firstrace
