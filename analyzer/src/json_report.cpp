// The JSON object of DESIGN "Outputs" (`analyze --format json`, `report --format json`).
#include <ostream>

#include "firstrace/report_model.hpp"
#include "json_writer.hpp"

namespace firstrace {
namespace {

void write_frame_fields(JsonWriter& w, const ReportFrame& f) {
    w.key("file").value(f.file);
    w.key("line").value(f.line);
    w.key("column").value(f.column);
    w.key("function").value(f.function);
}

// A stack: its headline frame's fields and every frame (innermost first), or null if unknown.
void write_stack(JsonWriter& w, const ReportStack& s) {
    if (!s.known()) {
        w.null();
        return;
    }
    w.begin_object();
    write_frame_fields(w, s.headline);
    w.key("frames").begin_array();
    for (const ReportFrame& f : s.frames) {
        w.begin_object();
        write_frame_fields(w, f);
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

void write_event(JsonWriter& w, const ReportEvent& e) {
    w.begin_object();
    w.key("thread").value(e.thread);
    w.key("index").value(e.index);
    w.key("locks").begin_array();
    for (const ReportHeldLock& l : e.locks) {
        w.begin_object();
        w.key("name").value(l.name);
        w.key("acquired");
        write_stack(w, l.acquired);
        w.end_object();
    }
    w.end_array();
    w.key("created_by");
    if (e.parent.empty())
        w.null();
    else
        w.value(e.parent);
    w.key("created");
    write_stack(w, e.created);
    w.end_object();
}

void write_ordered_after(JsonWriter& w, const std::optional<ReportOrderedAfter>& o) {
    if (!o) {
        w.null();
        return;
    }
    w.begin_object();
    w.key("race").value(o->race);
    w.key("chain").begin_array();
    for (const ReportOrderingStep& s : o->chain) {
        w.begin_object();
        w.key("thread").value(s.thread);
        w.key("index").value(s.index);
        w.key("via").value(s.via);
        w.key("kind").value(s.kind);
        w.key("object").value(s.object);
        w.key("at");
        write_stack(w, s.at);
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

void write_sites(JsonWriter& w, const std::vector<ReportSite>& sites) {
    w.begin_array();
    for (const auto& s : sites) {
        w.begin_object();
        w.key("file").value(s.file);
        w.key("line").value(s.line);
        w.key("column").value(s.column);
        w.key("function").value(s.function);
        w.key("kind").value(s.kind);
        w.key("stack").begin_array();
        for (const ReportFrame& f : s.stack) {
            w.begin_object();
            w.key("file").value(f.file);
            w.key("line").value(f.line);
            w.key("column").value(f.column);
            w.key("function").value(f.function);
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
}

} // namespace

void write_json_report(std::ostream& out, const ReportModel& model) {
    JsonWriter w(out);
    w.begin_object();
    w.key("trace").value(model.trace_path);
    w.key("ordering").value(to_string(model.ordering));
    w.key("truncated").value(model.truncated);
    const AnalysisCounts& c = model.counts;
    w.key("counts").begin_object();
    w.key("events").value(c.events);
    w.key("computation_events").value(c.computation_events);
    w.key("accesses").value(c.accesses);
    w.key("processes").value(c.processes);
    w.key("apparent").value(c.apparent);
    w.key("actual");
    if (model.ordering == Ordering::Complete)
        w.value(c.actual);
    else
        w.null();
    w.key("feasible").value(c.feasible);
    w.key("feasible_ec").value(c.feasible_ec);
    w.key("unvalidated").value(c.unvalidated);
    w.key("tangles").value(c.tangles);
    w.key("partitions").value(c.partitions);
    w.key("first_partitions").value(c.first_partitions);
    w.end_object();
    w.key("races").begin_array();
    for (const ReportRace& r : model.races) {
        w.newline();
        w.begin_object();
        w.key("id").value(r.id);
        w.key("a");
        write_event(w, r.a);
        w.key("b");
        write_event(w, r.b);
        w.key("status").value(to_string(r.status));
        w.key("tangle");
        if (r.tangle)
            w.value(*r.tangle);
        else
            w.null();
        w.key("actual");
        if (r.actual)
            w.value(*r.actual);
        else
            w.null();
        w.key("partition").value(r.partition);
        // Races of later partitions: a race it is ordered after and the chain of events.
        w.key("ordered_after");
        write_ordered_after(w, r.ordered_after);
        w.key("variables").begin_array();
        for (const auto& v : r.variables)
            w.value(v);
        w.end_array();
        w.key("sites").begin_object();
        w.key("a");
        write_sites(w, r.sites_a);
        w.key("b");
        write_sites(w, r.sites_b);
        w.end_object();
        // The race site instances: an a site and a b site sharing a byte (indices into
        // sites.a / sites.b), with the variable they share.
        w.key("site_pairs").begin_array();
        for (const ReportSitePair& p : r.pairs) {
            w.begin_object();
            w.key("a").value(p.a);
            w.key("b").value(p.b);
            w.key("variable").value(p.variable);
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
    w.key("partitions").begin_array();
    for (const ReportPartition& p : model.partitions) {
        w.newline();
        w.begin_object();
        w.key("id").value(p.id);
        w.key("first").value(p.first);
        w.key("races").begin_array();
        for (auto id : p.races)
            w.value(id);
        w.end_array();
        w.key("after").begin_array();
        for (auto id : p.after)
            w.value(id);
        w.end_array();
        w.end_object();
    }
    w.end_array();
    // Misuses of synchronization objects (undefined behaviour, never counted as races).
    w.key("misuses").begin_array();
    for (const ReportMisuse& m : model.misuses) {
        w.newline();
        w.begin_object();
        w.key("kind").value(m.kind);
        w.key("object").value(m.object);
        w.key("thread").value(m.thread);
        w.key("description").value(misuse_text(m));
        if (model.runs > 1) w.key("run").value(m.run);
        w.key("at");
        write_stack(w, m.at);
        w.end_object();
    }
    w.end_array();
    w.end_object();
    w.flush();
    out << "\n";
}

} // namespace firstrace
