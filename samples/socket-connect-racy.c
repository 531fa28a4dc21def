// The client of socket-connect.c, but it fills in the last part of the request only after
// sending: main's read of it after the receive is not ordered with that write.
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
    for (int i = 0; i < 3; ++i)
        request[i] = i * 10;
    int c = socket(AF_INET, SOCK_STREAM, 0);
    if (c < 0 || connect(c, (struct sockaddr*)&server, sizeof server) != 0) return NULL;
    if (send(c, "r", 1, 0) != 1) return NULL;
    request[3] = 30; // RACE
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
    int sum = request[0] + request[1] + request[2];
    sum += request[3]; // RACE
    pthread_join(t, NULL);
    close(a);
    close(s);
    printf("%d\n", sum);
    return 0;
}
