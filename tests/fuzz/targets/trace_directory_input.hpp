// One fuzzer input as a trace directory (the binary trace reader reads a directory of files):
// the input is the metadata file's text followed by sections, each introduced by a line
//
//   @@ NAME        the file NAME gets the section's bytes as they are (chunk layer and all)
//   @@z NAME       the section is a stream's decompressed records: written as valid chunks
//                  (compressed, checksummed, in sequence), so that mutations reach the record
//                  parser instead of stopping at the checksum
//
// NAME is one path component of [A-Za-z0-9._-] (other names are skipped). A section ends at
// the next "\n@@" line or at the end of the input. `write_trace_directory` writes the files;
// `trace_directory_input` is the inverse (the seed corpus is made from real traces with it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace firstrace::fuzz {

// Writes the files of `input` into the existing, empty directory `dir`.
void write_trace_directory(std::string_view input, const std::filesystem::path& dir);

// The input that writes the files of trace directory `dir` (streams as `@@z` sections).
std::string trace_directory_input(const std::filesystem::path& dir);

} // namespace firstrace::fuzz
