// The program's ThreadSanitizer configuration from a trace's metadata (tsan_configuration.hpp).
#include "firstrace/tsan_configuration.hpp"

#include <cstring>
#include <sstream>

#include "firstrace/errors.hpp"
#include "symbolizer_instrumented_module.hpp"
#include <firstrace/tsan_flags.hpp>

namespace firstrace {
namespace {

// The last setting of `name`: TSAN_OPTIONS', else the default options'.
bool flag_value(const TraceMetadata& m, const char* name, std::string& value) {
    for (const auto* options : {&m.tsan_options, &m.tsan_default_options}) {
        const char* v = nullptr;
        std::size_t n = 0;
        if (options->has_value() &&
            format::find_tsan_flag(options->value().c_str(), name, &v, &n)) {
            value.assign(v, n);
            return true;
        }
    }
    return false;
}

void add_suppressions(TsanConfiguration& c, const std::string& text, const std::string& source) {
    std::istringstream in(text);
    try {
        Suppressions s = Suppressions::parse(in, source);
        if (!s.rules().empty()) c.suppressions.push_back(std::move(s));
    } catch (const InputError& e) {
        c.warnings.push_back(std::string(e.what()) +
                             " (ThreadSanitizer stops the program there; not applied)");
    }
}

} // namespace

bool TsanConfiguration::filters() const {
    return !report_bugs || ignore_noninstrumented_modules || !suppressions.empty();
}

TsanConfiguration tsan_configuration(const TraceMetadata& m) {
    TsanConfiguration c;
    std::string value;
    if (flag_value(m, "report_bugs", value))
        c.report_bugs = format::tsan_flag_bool(value.data(), value.size()) != 0;
    if (flag_value(m, "ignore_noninstrumented_modules", value))
        c.ignore_noninstrumented_modules = format::tsan_flag_bool(value.data(), value.size()) == 1;
    if (m.tsan_suppressions_errno != 0)
        c.warnings.push_back("the program's suppressions file " + m.tsan_suppressions_file +
                             " could not be read when it ran (" +
                             std::strerror(m.tsan_suppressions_errno) +
                             "; ThreadSanitizer stops the program there): not applied");
    else if (!m.tsan_suppressions_file.empty())
        add_suppressions(c, m.tsan_suppressions, m.tsan_suppressions_file);
    if (m.tsan_default_suppressions)
        add_suppressions(c, *m.tsan_default_suppressions, "__tsan_default_suppressions()");
    if (c.ignore_noninstrumented_modules) {
        // TSan's libignore takes every module without instrumentation as a called_from_lib
        // one (the runtime, whose own accesses these are not, aside).
        std::string modules;
        for (const LoadedModule& module : m.modules)
            if (module.path.find("libfirstrace_rt") == std::string::npos &&
                !tsan_instrumented_module(module.path))
                modules += "called_from_lib:^" + module.path + "$\n";
        add_suppressions(c, modules, "ignore_noninstrumented_modules=1");
    }
    return c;
}

} // namespace firstrace
