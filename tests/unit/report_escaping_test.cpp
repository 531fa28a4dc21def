// Hostile names through every output format, end to end (issue 13): a text trace whose thread,
// variable and file names and source lines hold markup, quotes, backticks, `|`, control
// characters, invalid UTF-8, `]]>` and `</script>` is analyzed into a database (sources stored
// with --source-root), then reported as text, JSON, SARIF, Markdown and HTML by the command
// line. Each output must parse as its format and still show the names.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "firstrace/printable_text.hpp"
#include "firstrace/utf8.hpp"

namespace firstrace {
namespace {

namespace fs = std::filesystem;

// Names of the program as a hostile (or unlucky) trace gives them. A text trace line cannot
// hold a line break, and `|` ends the thread and operation fields; everything else is there.
const std::string kThread = "T<b>&\"'`$\x1b[31m\xff]]></script>";
const std::string kVariable = "v<i>&\"'`\x1b[2J\xc3(x)]]></script>";
const std::string kDirectory = "we<i>rd&\"'`|$\x1b\xfe]]><";
const std::string kFile = kDirectory + "/script>.c";
// The trace file's name ends up in every report header (the Markdown injection of issue 13
// item 7: a backtick and a line break in it ended the code span and started a heading).
const std::string kTraceName = "tr`ace\n# <b>x.std";
const std::string kSourceLine = "x = 1; /* <script>alert(1)</script> ]]> & \x1b[2J \xff `|` */";

std::string run(const std::string& args, int& status) {
    const std::string command = std::string(FIRSTRACE_BINARY) + " " + args + " 2>&1";
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return out;
    std::array<char, 4096> buffer{};
    std::size_t n;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
        out.append(buffer.data(), n);
    const int s = pclose(pipe);
    status = WIFEXITED(s) ? WEXITSTATUS(s) : -1;
    return out;
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool valid_utf8(const std::string& text) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_sequence_length(text, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

// The names as JSON shows them: valid UTF-8, a byte that is not UTF-8 replaced by U+FFFD.
std::string as_utf8(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_sequence_length(text, i);
        if (n == 0)
            out += kReplacementCharacter;
        else
            out.append(text, i, n);
        i += n == 0 ? 1 : n;
    }
    return out;
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

// Every string value anywhere in a parsed JSON document.
void collect_strings(const boost::property_tree::ptree& tree, std::set<std::string>& out) {
    if (tree.empty()) out.insert(tree.data());
    for (const auto& [key, child] : tree)
        collect_strings(child, out);
}

class ReportEscaping : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        root_ = fs::temp_directory_path() / ("firstrace-escaping." + std::to_string(::getpid()));
        fs::remove_all(root_);
        fs::create_directories(root_ / "src" / kDirectory);
        std::ofstream(root_ / "src" / kFile, std::ios::binary)
            << "int v;\n"
            << kSourceLine << "\n"
            << kSourceLine << "\nint main(void);\n";
        const std::string at = kFile + ":";
        std::ofstream(root_ / kTraceName, std::ios::binary)
            << "main|fork(" << kThread << ")|" << at << "1\n"
            << "main|w(" << kVariable << ")|" << at << "2\n"
            << kThread << "|w(" << kVariable << ")|" << at << "3\n"
            << "main|join(" << kThread << ")|" << at << "4\n";
        int status = -1;
        const std::string out = run("analyze '" + (root_ / kTraceName).string() + "' --db '" +
                                        (root_ / "results.db").string() + "' --source-root '" +
                                        (root_ / "src").string() + "' -q",
                                    status);
        ASSERT_EQ(status, 0) << out;
    }
    static void TearDownTestSuite() { fs::remove_all(root_); }

    static std::string report(const std::string& format) {
        const fs::path output = root_ / ("report." + format);
        int status = -1;
        const std::string out = run("report '" + (root_ / "results.db").string() + "' --format " +
                                        format + " -o '" + output.string() + "'",
                                    status);
        EXPECT_EQ(status, 0) << out;
        return read_file(output);
    }

    static fs::path root_;
};
fs::path ReportEscaping::root_;

TEST_F(ReportEscaping, TextShowsNoControlCharacterAndTheNamesEscaped) {
    const std::string text = report("text");
    for (const char c : text)
        ASSERT_FALSE((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f) << text;
    EXPECT_TRUE(valid_utf8(text)) << text;
    EXPECT_TRUE(contains(text, printable_text(kThread))) << text;
    EXPECT_TRUE(contains(text, printable_text(kVariable))) << text;
    EXPECT_TRUE(contains(text, printable_text(kFile + ":2"))) << text;
}

TEST_F(ReportEscaping, JsonParsesAndHoldsTheNames) {
    const std::string json = report("json");
    ASSERT_TRUE(valid_utf8(json));
    boost::property_tree::ptree tree;
    std::istringstream in(json);
    ASSERT_NO_THROW(boost::property_tree::read_json(in, tree)) << json;
    std::set<std::string> strings;
    collect_strings(tree, strings);
    EXPECT_TRUE(strings.count(as_utf8(kThread))) << json;
    EXPECT_TRUE(strings.count(as_utf8(kFile))) << json;
    const bool variable = std::any_of(strings.begin(), strings.end(), [](const std::string& s) {
        return contains(s, as_utf8(kVariable));
    });
    EXPECT_TRUE(variable) << json;
}

TEST_F(ReportEscaping, SarifParsesAndItsUrisAreUris) {
    const std::string sarif = report("sarif");
    ASSERT_TRUE(valid_utf8(sarif));
    boost::property_tree::ptree tree;
    std::istringstream in(sarif);
    ASSERT_NO_THROW(boost::property_tree::read_json(in, tree)) << sarif;
    std::set<std::string> strings;
    collect_strings(tree, strings);
    // The file as a relative URI: percent-encoded, so nothing but URI characters.
    const std::regex uri_chars("[A-Za-z0-9/._~+,=@%-]+");
    bool file_uri = false;
    for (const auto& s : strings)
        if (contains(s, "script%3E.c")) {
            file_uri = true;
            EXPECT_TRUE(std::regex_match(s, uri_chars)) << s;
        }
    EXPECT_TRUE(file_uri) << sarif;
    const bool message = std::any_of(strings.begin(), strings.end(), [](const std::string& s) {
        return contains(s, as_utf8(kThread)) || contains(s, as_utf8(kVariable));
    });
    EXPECT_TRUE(message) << sarif;
}

TEST_F(ReportEscaping, HtmlHasOnlyItsOwnTagsAndShowsTheNamesAndSource) {
    const std::string html = report("html");
    ASSERT_TRUE(valid_utf8(html));
    // Every tag is one the report writes itself: a name cannot open or close an element.
    const std::set<std::string> own = {
        "!DOCTYPE", "html", "head", "meta",   "title", "style", "body",    "h1",     "h2",
        "h3",       "h4",   "p",    "code",   "div",   "span",  "section", "header", "ol",
        "li",       "pre",  "i",    "strong", "table", "tr",    "td",      "th",     "b"};
    const std::regex tag("<(/?)([!A-Za-z][A-Za-z0-9]*)");
    for (auto it = std::sregex_iterator(html.begin(), html.end(), tag);
         it != std::sregex_iterator(); ++it)
        EXPECT_TRUE(own.count((*it)[2].str())) << "injected <" << (*it)[1] << (*it)[2];
    EXPECT_FALSE(contains(html, "<script")) << html;
    EXPECT_FALSE(contains(html, "<b>&")) << html;
    for (const char c : html)
        ASSERT_FALSE((static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') || c == 0x7f);
    EXPECT_TRUE(
        contains(html, "T&lt;b&gt;&amp;&quot;&#39;`$\\x1b[31m\xef\xbf\xbd]]&gt;&lt;/script&gt;"))
        << html;
    EXPECT_TRUE(contains(html, "&lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &amp; \\x1b[2J"))
        << "the source line";
}

TEST_F(ReportEscaping, MarkdownKeepsItsStructureAndShowsTheNames) {
    const std::string md = report("markdown");
    ASSERT_TRUE(valid_utf8(md));
    for (const char c : md)
        ASSERT_FALSE((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f) << md;
    // No name opens a code span, a tag, an entity or a link: each such character is escaped.
    std::istringstream lines(md);
    std::string line;
    std::size_t table_rows = 0;
    while (std::getline(lines, line)) {
        std::size_t cells = 0;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (line[i] == '\\') {
                ++i;
                continue;
            }
            EXPECT_TRUE(line[i] != '<' && line[i] != '&' && line[i] != '[') << line;
            if (line[i] == '`') {
                EXPECT_TRUE(contains(line, "`--format json`")) << line; // the report's own
            }
            cells += line[i] == '|';
        }
        if (!line.empty() && line.front() == '|') {
            ++table_rows;
            EXPECT_EQ(cells, 6u) << line; // five columns
        }
    }
    EXPECT_GE(table_rows, 2u) << md;
    EXPECT_FALSE(contains(md, "\n# <b>")) << md;
    EXPECT_TRUE(contains(md, "tr\\`ace \\# \\<b\\>x.std")) << md;
    EXPECT_TRUE(contains(md, "T\\<b\\>\\&\"'\\`\\$\\\\x1b\\[31m\xef\xbf\xbd\\]\\]\\>\\</script\\>"))
        << md;
}

} // namespace
} // namespace firstrace
