// std::condition_variable::wait_for: libstdc++ waits with pthread_cond_clockwait, which must
// be recorded as the mutex's release and re-acquisition like pthread_cond_wait. No data races.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

static std::mutex m;
static std::condition_variable cv;
static int data[4];
static bool ready = false;

int main() {
    std::thread t([] {
        std::unique_lock<std::mutex> l(m);
        while (!cv.wait_for(l, std::chrono::milliseconds(5), [] { return ready; })) {
        }
        data[0] += 1;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    {
        std::lock_guard<std::mutex> l(m);
        data[0] = 5;
        ready = true;
    }
    cv.notify_one();
    t.join();
    std::printf("%d\n", data[0]);
}
