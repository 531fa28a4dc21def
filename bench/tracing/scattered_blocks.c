// Scattered-access tracing benchmark, the pattern of a video encoder's or a compressor's
// threads (x264's frame threads, 7-Zip's match finder): THREADS threads each encode their band
// of 16x16 blocks of a frame, FRAMES times. Per block: a motion search (the sum of absolute
// differences against the previous frame at CANDIDATES positions around the block: 16-byte
// rows a pitch apart, overlapping from one candidate to the next), a 6-tap filter over the
// block's rows (a sliding window read by one instruction), and a hash table of the block's
// 4-byte chunks (one slot per chunk in a 64 Ki-entry table: scattered, revisited). After each
// row of blocks a thread publishes its progress under a mutex and broadcasts a condition
// variable, and before a row it waits until the thread above has finished the row below it
// (many short events, as x264's row counters). Race-free.
//   usage: scattered_blocks [THREADS=4] [FRAMES=60] [CANDIDATES=25] [WIDTH=640] [HEIGHT=480]
#define _XOPEN_SOURCE 700
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { kPad = 32, kHashBits = 16 };

static int threads = 4, frames = 60, candidates = 25, width = 640, height = 480;
static int pitch;
static uint8_t *ref, *cur, *out;
static int* rows_done; // per thread: block rows finished in the current frame
static pthread_mutex_t progress_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t progress_cond = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t frame_barrier;
static long checksum[64];

static int sad16(const uint8_t* a, const uint8_t* b) {
    int s = 0;
    for (int y = 0; y < 16; ++y, a += pitch, b += pitch)
        for (int x = 0; x < 16; ++x)
            s += abs(a[x] - b[x]);
    return s;
}

static void filter16(const uint8_t* src, uint8_t* dst) {
    for (int y = 0; y < 16; ++y, src += pitch, dst += pitch)
        for (int x = 0; x < 16; ++x) {
            int v = 0;
            for (int k = 0; k < 6; ++k) // one load instruction: a window sliding by one byte
                v += (k == 2 || k == 3 ? 20 : k == 1 || k == 4 ? -5 : 1) * src[x + k - 2];
            dst[x] = (uint8_t)(v < 0 ? 0 : v > 255 * 32 ? 255 : v >> 5);
        }
}

static void wait_row(int me, int row) { // the thread above has finished the row below `row`
    if (me == 0) return;
    pthread_mutex_lock(&progress_lock);
    while (rows_done[me - 1] < row + 2 && rows_done[me - 1] < height / 16 / threads)
        pthread_cond_wait(&progress_cond, &progress_lock);
    pthread_mutex_unlock(&progress_lock);
}

static void* encode(void* arg) {
    const int me = (int)(long)arg;
    uint32_t* table = calloc((size_t)1 << kHashBits, sizeof(uint32_t));
    const int band = height / 16 / threads;
    long sum = 0;
    for (int f = 0; f < frames; ++f) {
        for (int r = 0; r < band; ++r) {
            wait_row(me, r);
            const int by = (me * band + r) * 16;
            for (int bx = 0; bx + 16 <= width; bx += 16) {
                const uint8_t* blk = cur + by * pitch + bx;
                int best = 1 << 30;
                for (int c = 0; c < candidates; ++c) { // a small spiral around the block
                    const int dx = (c % 5) - 2 + (f & 1), dy = (c / 5) % 5 - 2;
                    const int s = sad16(blk, ref + (by + dy) * pitch + bx + dx);
                    if (s < best) best = s;
                }
                filter16(blk, out + by * pitch + bx);
                for (int y = 0; y < 16; ++y)
                    for (int x = 0; x < 16; x += 4) {
                        const uint8_t* p = blk + y * pitch + x;
                        const uint32_t h =
                            (uint32_t)(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24) *
                            2654435761u;
                        table[h >> (32 - kHashBits)] += (uint32_t)(bx + y); // scattered
                    }
                sum += best;
            }
            pthread_mutex_lock(&progress_lock);
            rows_done[me] = r + 1;
            pthread_cond_broadcast(&progress_cond);
            pthread_mutex_unlock(&progress_lock);
        }
        pthread_barrier_wait(&frame_barrier);
        if (me == 0) { // next frame: the rows counters start again
            pthread_mutex_lock(&progress_lock);
            for (int t = 0; t < threads; ++t)
                rows_done[t] = 0;
            pthread_mutex_unlock(&progress_lock);
        }
        pthread_barrier_wait(&frame_barrier);
    }
    for (int i = 0; i < 1 << kHashBits; ++i)
        sum += table[i];
    checksum[me] = sum;
    free(table);
    return NULL;
}

int main(int argc, char** argv) {
    if (argc > 1) threads = atoi(argv[1]);
    if (argc > 2) frames = atoi(argv[2]);
    if (argc > 3) candidates = atoi(argv[3]);
    if (argc > 4) width = atoi(argv[4]);
    if (argc > 5) height = atoi(argv[5]);
    if (threads < 1 || threads > 64 || height / 16 / threads < 1) return 2;
    pitch = width + 2 * kPad;
    const size_t bytes = (size_t)pitch * (height + 2 * kPad);
    uint8_t* planes[3];
    for (int i = 0; i < 3; ++i) {
        planes[i] = malloc(bytes);
        for (size_t k = 0; k < bytes; ++k)
            planes[i][k] = (uint8_t)((k * 2654435761u) >> (13 + i));
    }
    ref = planes[0] + kPad * pitch + kPad;
    cur = planes[1] + kPad * pitch + kPad;
    out = planes[2] + kPad * pitch + kPad;
    rows_done = calloc((size_t)threads, sizeof(int));
    pthread_barrier_init(&frame_barrier, NULL, (unsigned)threads);
    pthread_t tid[64];
    for (int t = 0; t < threads; ++t)
        pthread_create(&tid[t], NULL, encode, (void*)(long)t);
    long total = 0;
    for (int t = 0; t < threads; ++t) {
        pthread_join(tid[t], NULL);
        total += checksum[t];
    }
    printf("%ld\n", total);
    return 0;
}
