// What the CI renderings (JUnit, SARIF, annotations) say of a leak group
// and a process, in the same words.
#pragma once
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::render {

// "device leak: 1 resource, 8.0 KiB, created by cudaMalloc"
std::string leak_headline(const report::LeakGroup& g);
// One line per frame: "#1 step app.cu:12 (app)".
std::string leak_stack_text(const report::LeakGroup& g);
// The program's frame nearest the allocation with a source line; without
// debug info, the nearest program frame at all (its module locates it).
const report::Frame* leak_location(const std::vector<report::Frame>& stack);
// Text made safe inside XML and HTML markup, attribute values included.
std::string markup_escape(const std::string& s);
// "train (rank 3, pid 812 on node2)": a job's processes are told apart by rank.
std::string process_name(const report::Report& r);

}  // namespace cudaleak::render
