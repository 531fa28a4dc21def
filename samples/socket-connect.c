// A client thread prepares a request in shared memory, connects to main's listening socket
// and sends one byte; main accepts, receives the byte and only then reads the request. The
// connection orders the two (connect happens before the accept returns, the send before the
// receive that gets it): no race.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

static struct sockaddr_in server;
static int request[4];

static void* client(void* arg) {
    (void)arg;
    for (int i = 0; i < 4; ++i)
        request[i] = i * 10;
    int c = socket(AF_INET, SOCK_STREAM, 0);
    if (c < 0 || connect(c, (struct sockaddr*)&server, sizeof server) != 0) return NULL;
    if (send(c, "r", 1, 0) != 1) return NULL;
    close(c);
    return NULL;
}

int main(void) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    server.sin_family = AF_INET;
    server.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof server;
    if (s < 0 || bind(s, (struct sockaddr*)&server, sizeof server) != 0 || listen(s, 1) != 0 ||
        getsockname(s, (struct sockaddr*)&server, &len) != 0)
        return 1;
    pthread_t t;
    pthread_create(&t, NULL, client, NULL);
    int a = accept(s, NULL, NULL);
    char byte;
    if (a < 0 || recv(a, &byte, 1, 0) != 1) return 1;
    int sum = 0;
    for (int i = 0; i < 4; ++i)
        sum += request[i];
    pthread_join(t, NULL);
    close(a);
    close(s);
    printf("%d\n", sum);
    return 0;
}
