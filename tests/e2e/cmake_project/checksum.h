#pragma once
#ifdef __cplusplus
extern "C" {
#endif
unsigned checksum(const int* data, int n);
#ifdef __cplusplus
}
#endif
