// Whether a module is instrumented (symbolizer_instrumented_module.hpp), from its dynamic
// symbols, as sanitizer_common tells instrumented modules from others for libignore.
#include "symbolizer_instrumented_module.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cstring>

namespace firstrace {

bool tsan_instrumented_module(const std::string& path) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return true;
    elf_version(EV_CURRENT);
    Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
    bool readable = false, instrumented = false;
    for (Elf_Scn* scn = elf ? elf_nextscn(elf, nullptr) : nullptr; scn && !instrumented;
         scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        if (gelf_getshdr(scn, &shdr) == nullptr || shdr.sh_type != SHT_DYNSYM ||
            shdr.sh_entsize == 0)
            continue;
        Elf_Data* data = elf_getdata(scn, nullptr);
        if (data == nullptr) continue;
        readable = true;
        const std::size_t count = shdr.sh_size / shdr.sh_entsize;
        for (std::size_t i = 0; i < count && !instrumented; ++i) {
            GElf_Sym sym;
            if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) break;
            // (a weak reference is no call: the firstrace runtime's __tsan_default_options)
            if (sym.st_shndx != SHN_UNDEF || GELF_ST_BIND(sym.st_info) == STB_WEAK) continue;
            const char* name = elf_strptr(elf, shdr.sh_link, sym.st_name);
            instrumented = name != nullptr && std::strncmp(name, "__tsan_", 7) == 0;
        }
    }
    if (elf) elf_end(elf);
    close(fd);
    return instrumented || !readable;
}

} // namespace firstrace
