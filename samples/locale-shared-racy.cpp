// A locale with a facet of the program's own, copied into worker threads ([res.on.data.races]:
// copies of a locale used in different threads do not race). libstdc++ counts the copies'
// references in the locale's _Impl; the last copy to go (main's, or a worker's: its capture,
// or the ostringstream it imbued, destroyed inside libstdc++) destroys the _Impl and the facet.
// That count is the library's own atomic: main's runtime reported the destroying thread's
// ~Units and frees racing with the other threads' use_facet and reads of the facet (30-35 races
// in 10 rounds). The drops are now releases of the count, the destroying one acquires them
// (rt_locale_refcount.cpp). Here main and the worker count their uses in the facet unguarded.
#include <chrono>
#include <locale>
#include <sstream>
#include <thread>

struct Units : std::locale::facet {
    static std::locale::id id;
    const char* name;
    int scale;
    mutable int uses = 0;
    Units(const char* n, int s) : std::locale::facet(0), name(n), scale(s) {}
    ~Units() override { scale = 0; }
};
std::locale::id Units::id;

static void report(std::locale loc, int round) {
    const Units& u = std::use_facet<Units>(loc);
    u.uses++; // RACE
    std::ostringstream out;
    out.imbue(loc);
    out << round * u.scale << ' ' << u.name;
    if (round & 1) std::this_thread::sleep_for(std::chrono::microseconds(300));
}

int main() {
    for (int round = 0; round < 10; round++) {
        std::thread t;
        {
            std::locale loc(std::locale::classic(), new Units("mm", 1000));
            t = std::thread(report, loc, round);
            const Units& u = std::use_facet<Units>(loc);
            u.uses++; // RACE
            if (u.scale != 1000) return 1;
            if (!(round & 1)) std::this_thread::sleep_for(std::chrono::microseconds(300));
        }
        t.join();
    }
    return 0;
}
