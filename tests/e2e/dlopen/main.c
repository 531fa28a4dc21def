// Loads libplugin.so (plugin.c) with dlopen and calls it from two threads: without the
// plugin's mutex (no argument) they race on plugin_counter, with it (`locked`) they do not.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static void (*add)(int);
static int locked;

static void* worker(void* arg) {
    (void)arg;
    add(locked);
    return NULL;
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    locked = argc > 2;
    void* plugin = dlopen(argv[1], RTLD_NOW);
    if (plugin == NULL) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
    add = (void (*)(int))dlsym(plugin, "plugin_add");
    if (add == NULL) return 1;
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    dlclose(plugin);
    return 0;
}
