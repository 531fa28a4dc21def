// A C++ plugin a C program loads with RTLD_LOCAL (e2e.cli.local-cxx-plugin): its libstdc++ is
// outside the global scope, where the runtime's operator new and __cxa_* must still find the
// real ones (rt_real.cpp), or the throw below and the static's guard call a null function.
#include <stdexcept>

extern "C" int plugin_run(int x) {
    try {
        if (x > 0) throw std::runtime_error("boom");
    } catch (const std::exception& e) {
        return e.what()[0] == 'b' ? 42 : 1;
    }
    return 0;
}

static int guarded(int x) {
    static int v = x * 2;
    return v;
}

extern "C" int plugin_static(int x) {
    return guarded(x);
}
