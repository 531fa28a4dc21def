// Two clients, each with its own connections to main's server: a TCP connection, an AF_UNIX
// stream connection and UDP datagrams to a port of its own (client 1 connects its UDP socket
// and uses send). A handler thread per connection (and per UDP port) receives the client's id
// and reads what that client wrote before sending: its record, and for client 0 `shared`. A
// send orders the receives on its peer: no race. Client 1 sends after a relaxed flag client 0
// sets after its sends, as in the racy variant.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

enum { TCP, LOCAL, UDP, KINDS };

static struct sockaddr_in tcp_address, udp_address[2];
static struct sockaddr_un local_address;
static int record[2][KINDS];
static int shared[KINDS];
static atomic_int client0_sent;

static void* client(void* arg) {
    const int id = (int)(long)arg;
    int tcp = socket(AF_INET, SOCK_STREAM, 0);
    int local = socket(AF_UNIX, SOCK_STREAM, 0);
    int udp = socket(AF_INET, SOCK_DGRAM, 0);
    if (connect(tcp, (struct sockaddr*)&tcp_address, sizeof tcp_address) != 0 ||
        connect(local, (struct sockaddr*)&local_address, sizeof local_address) != 0)
        return NULL;
    for (int k = 0; k < KINDS; ++k)
        record[id][k] = 100 * id + k;
    if (id == 0)
        for (int k = 0; k < KINDS; ++k)
            shared[k] = 7 + k;
    else
        while (!atomic_load_explicit(&client0_sent, memory_order_relaxed))
            sched_yield();
    const char byte = (char)id;
    send(tcp, &byte, 1, 0);
    send(local, &byte, 1, 0);
    if (id == 0)
        sendto(udp, &byte, 1, 0, (struct sockaddr*)&udp_address[id], sizeof udp_address[id]);
    else if (connect(udp, (struct sockaddr*)&udp_address[id], sizeof udp_address[id]) == 0)
        send(udp, &byte, 1, 0);
    if (id == 0) atomic_store_explicit(&client0_sent, 1, memory_order_relaxed);
    char reply;
    recv(tcp, &reply, 1, 0); // the server is done with this connection
    close(tcp);
    close(local);
    close(udp);
    return NULL;
}

struct connection {
    int fd, kind;
    pthread_t thread;
};

static void* serve(void* arg) {
    struct connection* c = arg;
    char id;
    if (recv(c->fd, &id, 1, 0) != 1) return NULL;
    int sum = record[(int)id][c->kind];
    if (id == 0) sum += shared[c->kind]; // client 0 wrote it before sending to this socket
    if (c->kind == TCP) send(c->fd, "k", 1, 0);
    printf("%d %d %d\n", c->kind, id, sum);
    return NULL;
}

int main(void) {
    int tcp = socket(AF_INET, SOCK_STREAM, 0);
    tcp_address.sin_family = AF_INET;
    tcp_address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof tcp_address;
    if (bind(tcp, (struct sockaddr*)&tcp_address, len) != 0 || listen(tcp, 4) != 0 ||
        getsockname(tcp, (struct sockaddr*)&tcp_address, &len) != 0)
        return 1;
    int local = socket(AF_UNIX, SOCK_STREAM, 0);
    local_address.sun_family = AF_UNIX;
    snprintf(local_address.sun_path, sizeof local_address.sun_path, "/tmp/fr-sock-%d", getpid());
    unlink(local_address.sun_path);
    if (bind(local, (struct sockaddr*)&local_address, sizeof local_address) != 0 ||
        listen(local, 4) != 0)
        return 1;
    struct connection conns[6];
    for (int i = 0; i < 2; ++i) {
        int udp = socket(AF_INET, SOCK_DGRAM, 0);
        udp_address[i].sin_family = AF_INET;
        udp_address[i].sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        len = sizeof udp_address[i];
        if (bind(udp, (struct sockaddr*)&udp_address[i], len) != 0 ||
            getsockname(udp, (struct sockaddr*)&udp_address[i], &len) != 0)
            return 1;
        conns[4 + i] = (struct connection){udp, UDP, 0};
    }
    pthread_t clients[2];
    for (long i = 0; i < 2; ++i)
        pthread_create(&clients[i], NULL, client, (void*)i);
    for (int i = 0; i < 2; ++i) {
        conns[i] = (struct connection){accept(tcp, NULL, NULL), TCP, 0};
        conns[2 + i] = (struct connection){accept(local, NULL, NULL), LOCAL, 0};
    }
    for (int i = 0; i < 6; ++i)
        pthread_create(&conns[i].thread, NULL, serve, &conns[i]);
    for (int i = 0; i < 6; ++i)
        pthread_join(conns[i].thread, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(clients[i], NULL);
    for (int i = 0; i < 6; ++i)
        close(conns[i].fd);
    close(tcp);
    close(local);
    unlink(local_address.sun_path);
    return 0;
}
