// Short std::threads one after the other whose blocks the allocator hands from one to the next
// (each std::thread's state block, freed by its thread after its function returned, comes back
// to main's `new` for the next thread; strings copied and dropped by each thread): a reuse of
// freed memory starts a new lifetime of its bytes, so the old owner's accesses and its free do
// not conflict with the new owner's. What the threads share is ordered by a join or a mutex:
// nothing here races. (The racy variant: the same threads with neither.)
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

int counter;
std::string text = "a shared string, long enough to live in a heap block";
std::mutex lock;

static void copy_and_count(int value) {
    std::string copy = text; // a heap block, freed as the thread returns
    copy += " and a little more";
    counter = value + static_cast<int>(copy.size() % 2);
}

static void count_locked(int value) {
    std::string copy = text;
    std::lock_guard<std::mutex> guard(lock);
    counter += value + static_cast<int>(copy.size() % 2);
}

int main() {
    // joined before the next one is created
    std::thread t1(copy_and_count, 1);
    t1.join();
    std::thread t2(copy_and_count, 2);
    t2.join();
    // unjoined until the end, ordered by the mutex: the second starts after the first ended
    std::thread t3(count_locked, 3);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::thread t4(count_locked, 4);
    t4.join();
    t3.join();
    // a block a detached thread wrote and freed, then blocks main allocates and fills
    char* block = static_cast<char*>(std::malloc(200));
    std::memset(block, 1, 200);
    std::thread([block] {
        std::memset(block, 2, 200);
        std::free(block);
        char* own = static_cast<char*>(std::malloc(200)); // its own, freed as it ends
        std::memset(own, 3, 200);
        std::free(own);
    }).detach();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    long sum = 0;
    for (int round = 0; round < 4; ++round) {
        char* mine = static_cast<char*>(std::malloc(200));
        std::memset(mine, round, 200);
        sum += mine[199];
        std::free(mine);
    }
    return counter == 0 || sum < 0;
}
