// The trace-directory container of the binary trace fuzzer (see trace_directory_input.hpp).
#include "trace_directory_input.hpp"

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <firstrace/trace_format.hpp>

namespace firstrace::fuzz {
namespace {

namespace fs = std::filesystem;
namespace fmt = firstrace::format;

// Small chunks, so that records spanning chunks are common in what the fuzzer makes.
constexpr std::size_t kChunkRaw = 256;

bool plain_name(std::string_view name) {
    if (name.empty() || name == "." || name == ".." || name.size() > 64) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '_' || c == '-';
    });
}

std::string chunked(std::string_view records) {
    std::string out;
    std::vector<char> z(ZSTD_compressBound(kChunkRaw));
    std::uint32_t sequence = 0;
    for (std::size_t at = 0; at < records.size(); at += kChunkRaw) {
        const std::size_t n = std::min(kChunkRaw, records.size() - at);
        const std::size_t size = ZSTD_compress(z.data(), z.size(), records.data() + at, n, 1);
        if (ZSTD_isError(size)) throw std::runtime_error("ZSTD_compress failed");
        fmt::ChunkHeader h{};
        std::memcpy(h.magic, fmt::kChunkMagic, 4);
        h.format_version = fmt::kFormatVersion;
        h.header_size = sizeof h;
        h.sequence = sequence++;
        h.compressed_size = static_cast<std::uint32_t>(size);
        h.raw_size = static_cast<std::uint32_t>(n);
        h.checksum = fmt::chunk_checksum(h, z.data(), size);
        out.append(reinterpret_cast<const char*>(&h), sizeof h);
        out.append(z.data(), size);
    }
    return out;
}

void write_file(const fs::path& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

void write_trace_directory(std::string_view input, const fs::path& dir) {
    constexpr std::string_view kMark = "\n@@";
    std::size_t end = input.find(kMark);
    write_file(dir / fmt::kMetadataFile, input.substr(0, end));
    while (end != std::string_view::npos) {
        const std::size_t header = end + kMark.size();
        const std::size_t eol = input.find('\n', header);
        if (eol == std::string_view::npos) return;
        std::string_view spec = input.substr(header, eol - header);
        end = input.find(kMark, eol);
        const std::string_view body =
            input.substr(eol + 1, end == std::string_view::npos ? end : end - eol - 1);
        const bool records = !spec.empty() && spec.front() == 'z';
        if (records) spec.remove_prefix(1);
        if (spec.empty() || spec.front() != ' ') continue;
        spec.remove_prefix(1);
        if (!plain_name(spec) || spec == fmt::kMetadataFile || fs::exists(dir / spec)) continue;
        write_file(dir / spec, records ? chunked(body) : std::string(body));
    }
}

std::string trace_directory_input(const fs::path& dir) {
    std::string out = read_file(dir / fmt::kMetadataFile);
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.is_regular_file() && entry.path().filename() != fmt::kMetadataFile)
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
        const std::string bytes = read_file(file);
        std::string records;
        std::size_t at = 0;
        bool chunks = file.extension() == fmt::kStreamSuffix;
        while (chunks && at < bytes.size()) {
            fmt::ChunkHeader h;
            if (bytes.size() - at < sizeof h) {
                chunks = false;
                break;
            }
            std::memcpy(&h, bytes.data() + at, sizeof h);
            if (bytes.size() - at - sizeof h < h.compressed_size) {
                chunks = false;
                break;
            }
            const std::size_t base = records.size();
            records.resize(base + h.raw_size);
            const std::size_t got = ZSTD_decompress(
                records.data() + base, h.raw_size, bytes.data() + at + sizeof h, h.compressed_size);
            if (ZSTD_isError(got) || got != h.raw_size) {
                chunks = false;
                break;
            }
            at += sizeof h + h.compressed_size;
        }
        out += (chunks ? "\n@@z " : "\n@@ ") + file.filename().string() + "\n";
        out += chunks ? records : bytes;
    }
    return out;
}

} // namespace firstrace::fuzz
