// Two short std::threads one after the other, never ordered: the first has ended when main
// creates the second (main sleeps meanwhile, which orders nothing), and main joins both only at
// the end. The first thread's std::thread state block, freed by that thread after its function
// returned, is what main's `new` for the second thread's state gets back: a reuse of freed
// memory, which separates the block's lifetimes but does not order the two threads (before,
// it did, and this race was missed in every run). ThreadSanitizer reports it too.
#include <chrono>
#include <thread>

int counter; // both threads write it, unordered

static void first() {
    counter = 1; // RACE
}

static void second() {
    counter = 2; // RACE
}

int main() {
    std::thread t1(first);
    std::this_thread::sleep_for(std::chrono::milliseconds(50)); // t1 ends meanwhile
    std::thread t2(second);
    t2.join();
    t1.join();
    return counter == 0;
}
