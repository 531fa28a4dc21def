#include "checksum.h"

unsigned checksum(const int* data, int n) {
    unsigned h = 2166136261u;
    for (int i = 0; i < n; ++i)
        h = (h ^ (unsigned)data[i]) * 16777619u;
    return h;
}
