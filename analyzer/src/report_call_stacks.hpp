// Call stacks of access sites, synchronization events and heap blocks, and the frame a person
// looks at first (DESIGN "Outputs": a site is named by the innermost frame in the user's code).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "firstrace/model.hpp"

namespace firstrace {

// The frames of calling context `context` and of a location executing in it, innermost first,
// as Trace::locations indices: `location` with the frames it was inlined into, then each
// caller frame of the context chain with the frames it was inlined into. At most `limit`.
std::vector<std::uint32_t> call_stack(const Trace& trace, std::uint32_t location,
                                      std::uint32_t context, std::size_t limit = 256);

// Whether `file` is the user's code: known, and not a system or compiler header, not the C++
// standard library, not the C library (paths under /usr, /lib, /opt, or a compiler's include
// directory).
bool is_user_file(const std::string& file);

// The innermost frame of `stack` in the user's code; the innermost frame when none is; kNone
// for an empty stack.
std::uint32_t headline_location(const Trace& trace, const std::vector<std::uint32_t>& stack);

// headline_location of call_stack(site location, site context).
std::uint32_t site_headline(const Trace& trace, const AccessSite& site);

} // namespace firstrace
