// Loads the plugin named by argv[1] with RTLD_LOCAL and calls it (e2e.cli.local-cxx-plugin).
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    void* h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        printf("dlopen: %s\n", dlerror());
        return 1;
    }
    int (*run)(int) = (int (*)(int))dlsym(h, "plugin_run");
    int (*st)(int) = (int (*)(int))dlsym(h, "plugin_static");
    if (run == NULL || st == NULL) return 1;
    printf("run %d static %d\n", run(1), st(21));
    return 0;
}
