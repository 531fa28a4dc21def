#!/usr/bin/env python3
"""A bounded memcached workload over loopback (bench/real_programs/run.sh, "memcached").

    memcached_load.py PORT CLIENTS OPS

CLIENTS threads, each on its own connection to 127.0.0.1:PORT, send OPS commands each on 64
shared keys (set, get, incr, append, delete, multi-get), so that memcached's worker threads,
item locks, LRU and reference counts see concurrent use. Then one connection reads "stats" and
sends "shutdown" (the server must be started with -A), so the server ends by itself. Prints the
server's cmd_get and cmd_set counts and the client errors: the same line for every build.
"""
import socket
import sys
import threading
import time


def connect(port):
    for _ in range(600):  # the server may start slowly under a tracer: up to 30 s
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=120)
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("no server on port %d" % port)


def reply(lines, until):
    got = []
    while True:
        line = lines.readline()
        if not line:
            raise RuntimeError("connection closed")
        got.append(line)
        if line.startswith(until):
            return got


def client(port, n, ops, errors):
    try:
        s = connect(port)
        f = s.makefile("rb")
        for i in range(ops):
            key = b"key%d" % ((i * 7 + n) % 64)
            kind = i % 6
            if kind == 0:
                v = b"v%d-%d" % (n, i)
                s.sendall(b"set %s 0 0 %d\r\n%s\r\n" % (key, len(v), v))
                reply(f, (b"STORED",))
            elif kind == 1:
                s.sendall(b"get %s\r\n" % key)
                reply(f, (b"END",))
            elif kind == 2:
                s.sendall(b"set n%d 0 0 1\r\n1\r\nincr n%d 1\r\n" % (i % 8, i % 8))
                reply(f, (b"STORED",))
                f.readline()  # the new value, or NOT_FOUND if another client deleted it
            elif kind == 3:
                s.sendall(b"append %s 0 0 1\r\nx\r\n" % key)
                reply(f, (b"STORED", b"NOT_STORED"))
            elif kind == 4:
                s.sendall(b"delete %s\r\n" % key)
                reply(f, (b"DELETED", b"NOT_FOUND"))
            else:
                s.sendall(b"get key1 key2 key3 key4 %s\r\n" % key)
                reply(f, (b"END",))
        s.close()
    except (OSError, RuntimeError) as e:
        errors.append(str(e))


def main():
    port, clients, ops = (int(a) for a in sys.argv[1:4])
    errors = []
    threads = [threading.Thread(target=client, args=(port, n, ops, errors)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    s = connect(port)
    f = s.makefile("rb")
    s.sendall(b"stats\r\n")
    stats = reply(f, (b"END",))
    counts = [l.strip().decode() for l in stats if l.startswith((b"STAT cmd_get ", b"STAT cmd_set "))]
    print(" ".join(counts), "client errors", len(errors))
    s.sendall(b"shutdown\r\n")
    s.close()
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
