#include <cstdio>
#include <thread>

#include "stages.hpp"

int main() {
    Channel channel;
    std::thread consumer([&] { consume(channel); });
    for (int i = 0; i < 200; ++i) {
        auto b = std::make_unique<Block>();
        for (int j = 0; j < 32; ++j)
            b->values[j] = i * j;
        channel.push(std::move(b));
    }
    channel.close();
    consumer.join();
    std::printf("total %ld\n", g_total.load());
    return 0;
}
