// Writes a random, valid STD trace: `generate_std_trace --operations 10000000 -o big.std`.
#include <fstream>
#include <iostream>

#include "generator_options.hpp"

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    firstrace::bench::GeneratorParams params;
    std::string output;
    po::options_description desc("usage: generate_std_trace [options]\n\noptions");
    desc.add_options()("help,h", "show this help")("output,o", po::value(&output),
                                                   "output file (default: stdout)");
    firstrace::bench::add_generator_options(desc, params);
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, desc), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "generate_std_trace: " << e.what() << "\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << desc << "\n";
        return 0;
    }
    firstrace::bench::StdTraceGenerator generator(params);
    if (output.empty()) {
        generator.write(std::cout);
        return 0;
    }
    std::ofstream out(output);
    if (!out) {
        std::cerr << "generate_std_trace: cannot write " << output << "\n";
        return 2;
    }
    const auto lines = generator.write(out);
    std::cerr << "wrote " << lines << " lines to " << output << "\n";
    return 0;
}
