#pragma once
// Large per-race arrays on transparent huge pages.
//
// Dense traces have tens of millions of apparent races, and the stages after the address sweep
// each fill arrays of a few bytes per race: the race list, the direct dependences in both
// directions, the statuses, the partitions, the output records — together more fresh memory
// than the trace model. Every fresh 4 KiB page is a page fault that the kernel zeroes; on the
// virtual machines the stress suite runs on (issue 14) that is about 14 µs per page, so
// 850 MB of fresh pages (hot at 10^5 lines) were about 3 of its 7 CPU seconds. A 2 MiB page is
// one fault instead of 512. Linux gives huge pages to anonymous memory only where asked for
// (transparent_hugepage "madvise", the common default), and glibc's own switch
// (glibc.malloc.hugetlb) is an environment tunable read at start-up, which a library cannot set:
// so the arrays that grow with the races ask for them here, before they are first written.
// The advice is a hint: where the kernel has no huge page (or is not Linux) nothing changes.
// Resident memory stays what the array uses, rounded up to 2 MiB at its end.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "firstrace/huge_page_advice.hpp"

namespace firstrace {

// v.reserve(n) with the new storage advised before anything is written to it.
template <class T> void reserve_on_huge_pages(std::vector<T>& v, std::size_t n) {
    if (n <= v.capacity()) return;
    std::vector<T> grown;
    grown.reserve(n);
    advise_huge_pages(grown.data(), n * sizeof(T));
    grown.insert(grown.end(), std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
    v.swap(grown);
}

// v.assign(n, value) on advised storage.
template <class T> void assign_on_huge_pages(std::vector<T>& v, std::size_t n, const T& value) {
    std::vector<T>().swap(v);
    reserve_on_huge_pages(v, n);
    v.assign(n, value);
}

// v.push_back(value), growing by doubling onto advised storage.
template <class T> void push_back_on_huge_pages(std::vector<T>& v, const T& value) {
    if (v.size() == v.capacity()) reserve_on_huge_pages(v, v.size() < 16 ? 16 : 2 * v.size());
    v.push_back(value);
}

} // namespace firstrace
