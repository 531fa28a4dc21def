#include "report_call_stacks.hpp"

namespace firstrace {
namespace {

void push_with_inlined(const Trace& trace, std::uint32_t location, std::size_t limit,
                       std::vector<std::uint32_t>& out) {
    // A location of an inlined call names the frame it was inlined into; follow the chain
    // (bounded: a corrupt trace must not loop).
    for (std::size_t guard = 0;
         location < trace.locations.size() && out.size() < limit && guard < 64; ++guard) {
        out.push_back(location);
        location = trace.locations[location].inlined_into;
    }
}

} // namespace

std::vector<std::uint32_t> call_stack(const Trace& trace, std::uint32_t location,
                                      std::uint32_t context, std::size_t limit) {
    std::vector<std::uint32_t> out;
    push_with_inlined(trace, location, limit, out);
    for (std::size_t guard = 0;
         context < trace.contexts.size() && out.size() < limit && guard < 4096; ++guard) {
        const ContextFrame& f = trace.contexts[context];
        push_with_inlined(trace, f.location, limit, out);
        context = f.parent;
    }
    return out;
}

bool is_user_file(const std::string& file) {
    if (file.empty()) return false;
    for (const char* prefix : {"/usr/", "/lib/", "/lib64/", "/opt/", "/nix/store/"})
        if (file.rfind(prefix, 0) == 0) return false;
    // Compiler and standard library headers wherever the toolchain lives.
    for (const char* part : {"/include/c++/", "/bits/", "/lib/gcc/", "/lib/clang/", "/libstdc++",
                             "/libc++/", "/glibc/"})
        if (file.find(part) != std::string::npos) return false;
    return true;
}

std::uint32_t headline_location(const Trace& trace, const std::vector<std::uint32_t>& stack) {
    for (std::uint32_t l : stack)
        if (is_user_file(trace.locations[l].file)) return l;
    return stack.empty() ? kNone : stack.front();
}

std::uint32_t site_headline(const Trace& trace, const AccessSite& site) {
    if (site.context == kNone && (site.location >= trace.locations.size() ||
                                  trace.locations[site.location].inlined_into == kNone))
        return site.location; // STD traces and sites without a stack: the access itself
    return headline_location(trace, call_stack(trace, site.location, site.context));
}

} // namespace firstrace
