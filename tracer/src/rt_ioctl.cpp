// ioctl's argument: what the driver reads from and stores into the program's memory, as
// accesses at the caller's program counter (ThreadSanitizer's common interceptors decode the
// same). Two threads asking for a count or a window size into one unguarded variable race; a
// thread reading an answer races with another thread's next ioctl into it.
//
// Linux encodes the direction and size of most requests in the number (<asm-generic/ioctl.h>:
// _IOR: the kernel writes _IOC_SIZE bytes at the argument, _IOW: it reads them, _IOWR: both).
// The older terminal and socket requests carry no encoding; the common ones are listed:
//   FIONREAD, TIOCOUTQ               write an int
//   FIONBIO, FIOASYNC                read an int
//   TCGETS / TCSETS, TCSETSW, TCSETSF  write / read a struct termios
//   TIOCGWINSZ / TIOCSWINSZ          write / read a struct winsize
//   SIOCGIF* (name, index, flags, address, netmask, MTU, hardware address)
//                                    read the struct ifreq (the interface's name or index),
//                                    write it
// Other requests are not modelled (no access recorded). Reads are recorded before the call,
// writes after a success. Only from threads the runtime already knows, never from inside the
// runtime.
#include <net/if.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <termios.h>

#include "rt_library_call.hpp"
#include "rt_real.hpp"

using namespace frt;

namespace {

using ioctl_fn = int (*)(int, unsigned long, ...);
FRT_DECLARE_REAL_TYPED(ioctl, ioctl_fn);

// What a request does with the memory its argument points to.
struct ArgumentUse {
    u64 size;   // bytes (0: none known)
    bool read;  // the driver reads them
    bool write; // the driver stores them
};

ArgumentUse argument_use(unsigned long request) {
    switch (request) {
    case FIONREAD:
    case TIOCOUTQ:
        return {sizeof(int), false, true};
    case FIONBIO:
    case FIOASYNC:
        return {sizeof(int), true, false};
    case TCGETS:
        return {sizeof(struct termios), false, true};
    case TCSETS:
    case TCSETSW:
    case TCSETSF:
        return {sizeof(struct termios), true, false};
    case TIOCGWINSZ:
        return {sizeof(struct winsize), false, true};
    case TIOCSWINSZ:
        return {sizeof(struct winsize), true, false};
    case SIOCGIFNAME:
    case SIOCGIFINDEX:
    case SIOCGIFFLAGS:
    case SIOCGIFADDR:
    case SIOCGIFNETMASK:
    case SIOCGIFMTU:
    case SIOCGIFHWADDR:
        return {sizeof(struct ifreq), true, true};
    default:
        break;
    }
    const unsigned direction = _IOC_DIR(request);
    return {_IOC_SIZE(request), (direction & _IOC_WRITE) != 0, (direction & _IOC_READ) != 0};
}

} // namespace

FRT_EXPORT int ioctl(int fd, unsigned long request, ...) {
    va_list arguments;
    va_start(arguments, request);
    void* argument = va_arg(arguments, void*);
    va_end(arguments);
    const u64 pc = FRT_CALLER();
    const ArgumentUse use = argument_use(request);
    if (use.read)
        if (LibraryCall c(pc); c) c.bytes(argument, use.size, false);
    const int r = REAL(ioctl)(fd, request, argument);
    if (use.write && r != -1)
        if (LibraryCall c(pc); c) c.bytes(argument, use.size, true);
    return r;
}

FRT_INTERCEPTOR_ALIAS(ioctl)
