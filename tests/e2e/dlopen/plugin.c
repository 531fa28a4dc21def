// An instrumented library that the program loads with dlopen (tests/e2e/dlopen): its accesses
// and its mutex are traced like the program's own, and its lines resolve in reports (the
// runtime lists modules loaded later in the trace metadata).
#include <pthread.h>

int plugin_counter;
static pthread_mutex_t plugin_lock = PTHREAD_MUTEX_INITIALIZER;

void plugin_add(int locked) {
    if (locked) pthread_mutex_lock(&plugin_lock);
    plugin_counter += 1; // RACE when called unlocked
    if (locked) pthread_mutex_unlock(&plugin_lock);
}
