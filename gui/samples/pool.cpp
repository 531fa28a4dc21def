// A small thread pool with two bugs, the C++ sample of the browser's screenshots (issue 15):
// workers pop tasks from a queue guarded by a mutex, but
//  1. they count finished tasks per kind in an unordered_map without the lock (// RACE), and
//  2. the pool's `busy` flag is written by every worker without synchronization (// RACE).
// Library frames (std::unordered_map, std::string) sit under the user's lines in the stacks.
#include <chrono>
#include <cstdio>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace {

struct Task {
    std::string kind;
    int cost;
};

class Pool {
  public:
    explicit Pool(int threads) {
        for (int i = 0; i < threads; ++i)
            workers_.emplace_back([this] { work(); });
    }
    void submit(Task task) {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.push_back(std::move(task));
    }
    void join() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            closing_ = true;
        }
        for (std::thread& worker : workers_)
            worker.join();
    }
    int finished(const std::string& kind) const {
        const auto it = finished_.find(kind);
        return it == finished_.end() ? 0 : it->second;
    }

  private:
    bool next(Task& task) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (queue_.empty()) return false;
        task = std::move(queue_.front());
        queue_.pop_front();
        return true;
    }
    void work() {
        Task task;
        for (;;) {
            if (!next(task)) {
                std::lock_guard<std::mutex> lock(mutex_);
                if (closing_ && queue_.empty()) return;
                continue;
            }
            busy_ = true;                                                            // RACE
            std::this_thread::sleep_for(std::chrono::microseconds(task.cost / 100)); // the work
            ++finished_[task.kind];                                                  // RACE
            busy_ = false;                                                           // RACE
        }
    }

    std::mutex mutex_;
    std::deque<Task> queue_;
    bool closing_ = false;
    bool busy_ = false;
    std::unordered_map<std::string, int> finished_;
    std::vector<std::thread> workers_;
};

} // namespace

int main() {
    Pool pool(3);
    for (int i = 0; i < 12; ++i)
        pool.submit({i % 2 ? "resize" : "decode", 200000 + 1000 * i});
    pool.join();
    // The racy counts may lose updates; the program reports them and succeeds either way.
    std::printf("decode %d, resize %d of 12 tasks\n", pool.finished("decode"),
                pool.finished("resize"));
    return 0;
}
