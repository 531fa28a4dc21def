// The descriptor table (rt_fd_table.hpp): numbers below kDirectFds, the ones nearly every program
// uses, in static memory; the others in chunks of kChunkFds states mapped on first use
// (anonymous memory, not the program's malloc, installed with a compare-exchange: the loser
// unmaps its copy), so that neither a lookup nor a chunk's creation takes a lock. A program that
// never goes past descriptor 4095 maps nothing.
//
// The bytes that stand for incarnations are static arrays exported under names that say what
// they are in reports: 256 incarnations per number below kDirectFds (a closed number is reused
// at once: drd's concurrent_close makes hundreds of incarnations of descriptor 3 between
// unordered threads), 16 per number above it (16 MiB of address space that is never touched:
// only addresses are recorded).
#include "rt_fd_table.hpp"

#include <sys/mman.h>
#include <sys/syscall.h>

#include "rt_system.hpp"

using namespace frt;
using namespace frt::fd;

namespace {
constexpr int kDirectFds = 4096;
constexpr u32 kDirectIncarnations = 256;
constexpr u32 kHighIncarnations = 16;
constexpr int kChunkFds = 4096;
constexpr int kChunks = kMaxFd / kChunkFds;

DescriptorState g_direct[kDirectFds];
std::atomic<DescriptorState*> g_chunks[kChunks]; // [0] unused: the direct states

DescriptorState* chunk(int index) {
    DescriptorState* c = g_chunks[index].load(std::memory_order_acquire);
    if (c != nullptr) return c;
    constexpr std::size_t bytes = sizeof(DescriptorState) * kChunkFds;
    auto* fresh = static_cast<DescriptorState*>(map_anonymous(bytes)); // zero: all kOtherKind
    if (fresh == nullptr) return nullptr;
    if (g_chunks[index].compare_exchange_strong(c, fresh, std::memory_order_acq_rel)) return fresh;
    system_call(SYS_munmap, fresh, bytes);
    return c;
}
} // namespace

extern "C" {
__attribute__((visibility(
    "default"))) unsigned char firstrace_file_descriptors[kDirectFds * kDirectIncarnations];
__attribute__((visibility("default"))) unsigned char
    firstrace_high_file_descriptors[static_cast<u64>(kMaxFd - kDirectFds) * kHighIncarnations];
}

DescriptorState* frt::fd::descriptor_state(int fd) {
    if (fd < 0 || fd >= kMaxFd) return nullptr;
    if (fd < kDirectFds) return &g_direct[fd];
    DescriptorState* c = chunk(fd / kChunkFds);
    return c == nullptr ? nullptr : &c[fd % kChunkFds];
}

u32 frt::fd::incarnations(int fd) {
    return fd < kDirectFds ? kDirectIncarnations : kHighIncarnations;
}

const void* frt::fd::descriptor_byte(int fd, u32 incarnation) {
    if (fd < kDirectFds)
        return &firstrace_file_descriptors[static_cast<u64>(fd) * kDirectIncarnations +
                                           incarnation % kDirectIncarnations];
    return &firstrace_high_file_descriptors[static_cast<u64>(fd - kDirectFds) * kHighIncarnations +
                                            incarnation % kHighIncarnations];
}
