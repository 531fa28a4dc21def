#pragma once
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>

struct Block {
    int values[32];
};

class Channel {
  public:
    void push(std::unique_ptr<Block> b);
    std::unique_ptr<Block> pop(); // null once closed and empty
    void close();

  private:
    std::mutex mutex_;
    std::deque<std::unique_ptr<Block>> queue_;
    bool closed_ = false;
};

extern std::atomic<long> g_total;
void consume(Channel& channel);
