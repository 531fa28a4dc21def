// A small C++ thread pool pricing orders. Jobs are handed out under the pool's mutex, and
// prices are inserted into an unordered_map under `prices_lock`, but two accesses escaped
// their locks: the workers add to `total` without the lock, and `price_of` reads the map
// without `prices_lock` while another worker inserts. The orders are queued in one batch, the
// workers wait for each other before taking jobs (a relaxed counter, which orders nothing) and
// yield inside a job: jobs run one after the other by whichever worker is awake would be
// ordered by the pool's mutex, and the races would depend on the schedule even more.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

class ThreadPool {
  public:
    explicit ThreadPool(unsigned n) : size_(n) {
        for (unsigned i = 0; i < n; ++i)
            workers_.emplace_back([this] { run(); });
    }
    ~ThreadPool() {
        {
            std::lock_guard<std::mutex> g(lock_);
            done_ = true;
        }
        ready_.notify_all();
        for (std::thread& t : workers_)
            t.join();
    }
    void submit_all(std::vector<std::function<void()>> jobs) {
        {
            std::lock_guard<std::mutex> g(lock_);
            for (auto& job : jobs)
                jobs_.push_back(std::move(job));
        }
        ready_.notify_all();
    }

  private:
    void run() {
        arrived_.fetch_add(1, std::memory_order_relaxed);
        while (arrived_.load(std::memory_order_relaxed) < size_)
            std::this_thread::yield();
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock<std::mutex> g(lock_);
                ready_.wait(g, [this] { return done_ || !jobs_.empty(); });
                if (jobs_.empty()) return;
                job = std::move(jobs_.front());
                jobs_.pop_front();
            }
            job();
        }
    }
    std::mutex lock_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> jobs_;
    std::vector<std::thread> workers_;
    bool done_ = false;
    const unsigned size_;
    std::atomic<unsigned> arrived_{0};
};

static std::unordered_map<std::string, double> prices;
static std::mutex prices_lock;
static double total = 0;
static std::atomic<int> pricing{0}; // orders begun

static void set_price(const std::string& item, double price) {
    std::lock_guard<std::mutex> g(prices_lock);
    prices[item] = price; // RACE? BUG in set_price
}

static double price_of(const std::string& item) {
    const auto it = prices.find(item);            // RACE? BUG in price_of
    return it == prices.end() ? 0.0 : it->second; // RACE?
}

static void price_order(int order) {
    const std::string item = "item" + std::to_string(order % 7);
    double price = price_of(item);
    if (price == 0.0) {
        price = 1.0 + order % 7;
        set_price(item, price);
    }
    // Pricing takes a while: another worker takes the next order meanwhile, so that jobs of
    // different workers overlap. The first order waits until a second one has started (a
    // relaxed counter, which orders nothing): on a loaded machine one awake worker could
    // otherwise run every job, each ordered after the last by the pool's mutex (the sample
    // then showed no race at all, 1 run in a few under load).
    if (pricing.fetch_add(1, std::memory_order_relaxed) == 0)
        for (int waited = 0; waited < 5000 && pricing.load(std::memory_order_relaxed) < 2; ++waited)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::yield();
    total += price; // RACE? BUG in price_order
}

int main() {
    {
        ThreadPool pool(3);
        std::vector<std::function<void()>> orders;
        for (int order = 0; order < 400; ++order)
            orders.push_back([order] { price_order(order); });
        pool.submit_all(std::move(orders));
    }
    std::printf("total %.1f\n", total);
    return 0;
}
