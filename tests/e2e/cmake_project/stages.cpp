#include <thread>

#include "checksum.h"
#include "stages.hpp"

std::atomic<long> g_total{0};

void Channel::push(std::unique_ptr<Block> b) {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(b));
}

std::unique_ptr<Block> Channel::pop() {
    for (;;) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!queue_.empty()) {
                auto b = std::move(queue_.front());
                queue_.pop_front();
                return b;
            }
            if (closed_) return nullptr;
        }
        std::this_thread::yield();
    }
}

void Channel::close() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
}

void consume(Channel& channel) {
    while (auto b = channel.pop()) {
        g_total.fetch_add(checksum(b->values, 32) % 1000, std::memory_order_relaxed);
        // b is freed here, in this thread; the producer's next allocation may reuse it
    }
}
