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
//   SIOCGIF* (name, index, flags, address, netmask, MTU, hardware address; broadcast and
//   destination address, metric, map, queue length: eighteenth session)
//                                    read the struct ifreq (the interface's name or index),
//                                    write it
// and (eighteenth session) the others ThreadSanitizer's list decodes on Linux:
//   SIOCSIF* (flags, addresses, MTU, metric, hardware address, map, queue length, name)
//                                    read the struct ifreq
//   SIOCGIFCONF                      reads the struct ifconf; writes ifc_len and the ifc_len
//                                    bytes stored at ifc_buf (when given)
//   TIOCGPGRP, TIOCGSID, SIOCGPGRP, FIOGETOWN / TIOCSPGRP, SIOCSPGRP, FIOSETOWN
//                                    write / read a pid_t or int
//   TIOCMGET, TIOCGETD, TIOCGSOFTCAR, SIOCATMARK / TIOCMSET, TIOCMBIS, TIOCMBIC, TIOCSETD,
//   TIOCSSOFTCAR                     write / read an int
//   TIOCSTI                          reads a char
//   TCGETA / TCSETA, TCSETAW, TCSETAF  write / read a struct termio
//   TIOCGLCKTRMIOS / TIOCSLCKTRMIOS  write / read a struct termios
//   SIOCGSTAMP, SIOCGSTAMPNS (the 64-bit time requests: 0x8906, 0x8907)
//                                    write a struct timeval / timespec
//   SIOCGARP / SIOCSARP, SIOCDARP    read and write / read a struct arpreq
// Other requests are not modelled (no access recorded). Reads are recorded before the call,
// writes after a success. Only from threads the runtime already knows, never from inside the
// runtime.
#include <net/if.h>
#include <net/if_arp.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <termios.h>

#include "rt_library_call.hpp"
#include "rt_real.hpp"

using namespace frt;

namespace {

using ioctl_fn = int (*)(int, unsigned long, ...);
FRT_DECLARE_REAL_TYPED(ioctl, ioctl_fn);

// SIOCGSTAMP and SIOCGSTAMPNS as 64-bit programs number them (newer kernel headers spell them
// with the time's size; the old numbers stay the ones glibc's headers give).
constexpr unsigned long kTimestamp = 0x8906;
constexpr unsigned long kTimestampNs = 0x8907;

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
    case SIOCGIFBRDADDR:
    case SIOCGIFDSTADDR:
    case SIOCGIFMETRIC:
    case SIOCGIFMAP:
    case SIOCGIFTXQLEN:
        return {sizeof(struct ifreq), true, true};
    case SIOCSIFFLAGS:
    case SIOCSIFADDR:
    case SIOCSIFBRDADDR:
    case SIOCSIFDSTADDR:
    case SIOCSIFNETMASK:
    case SIOCSIFMTU:
    case SIOCSIFMETRIC:
    case SIOCSIFHWADDR:
    case SIOCSIFMAP:
    case SIOCSIFTXQLEN:
    case SIOCSIFNAME:
        return {sizeof(struct ifreq), true, false};
    case TIOCGPGRP:
    case TIOCGSID:
        return {sizeof(pid_t), false, true};
    case TIOCSPGRP:
        return {sizeof(pid_t), true, false};
    case SIOCGPGRP:
    case FIOGETOWN:
    case TIOCMGET:
    case TIOCGETD:
    case TIOCGSOFTCAR:
    case SIOCATMARK:
        return {sizeof(int), false, true};
    case SIOCSPGRP:
    case FIOSETOWN:
    case TIOCMSET:
    case TIOCMBIS:
    case TIOCMBIC:
    case TIOCSETD:
    case TIOCSSOFTCAR:
        return {sizeof(int), true, false};
    case TIOCSTI:
        return {1, true, false};
    case TCGETA:
        return {sizeof(struct termio), false, true};
    case TCSETA:
    case TCSETAW:
    case TCSETAF:
        return {sizeof(struct termio), true, false};
    case TIOCGLCKTRMIOS:
        return {sizeof(struct termios), false, true};
    case TIOCSLCKTRMIOS:
        return {sizeof(struct termios), true, false};
    case kTimestamp:
        return {sizeof(struct timeval), false, true};
    case kTimestampNs:
        return {sizeof(struct timespec), false, true};
    case SIOCGARP:
        return {sizeof(struct arpreq), true, true};
    case SIOCSARP:
    case SIOCDARP:
        return {sizeof(struct arpreq), true, false};
    default:
        break;
    }
    const unsigned direction = _IOC_DIR(request);
    return {_IOC_SIZE(request), (direction & _IOC_WRITE) != 0, (direction & _IOC_READ) != 0};
}

// SIOCGIFCONF made at pc: the struct ifconf read (its room and buffer); ifc_len and the bytes
// stored at ifc_buf written (a null buffer asks for the size only).
int interface_list(u64 pc, int fd, struct ifconf* list) {
    if (LibraryCall c(pc); c) c.bytes(list, sizeof *list, false);
    const int r = REAL(ioctl)(fd, SIOCGIFCONF, list);
    if (r != -1 && list != nullptr)
        if (LibraryCall c(pc); c) {
            c.bytes(&list->ifc_len, sizeof list->ifc_len, true);
            if (list->ifc_buf != nullptr && list->ifc_len > 0)
                c.bytes(list->ifc_buf, static_cast<u64>(list->ifc_len), true);
        }
    return r;
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
    if (request == SIOCGIFCONF) return interface_list(pc, fd, static_cast<ifconf*>(argument));
    const int r = REAL(ioctl)(fd, request, argument);
    if (use.write && r != -1)
        if (LibraryCall c(pc); c) c.bytes(argument, use.size, true);
    return r;
}

FRT_INTERCEPTOR_ALIAS(ioctl)
