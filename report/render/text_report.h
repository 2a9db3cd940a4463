// LeakSanitizer-style text rendering of a report: leak groups biggest first,
// each with its stack, and one SUMMARY line.
#pragma once
#include <string>

#include "common/quantities.h"
#include "common/tty_color.h"
#include "report/model/report.h"
#include "report/render/text_options.h"

namespace cudaleak::render {

std::string render_text(const report::Report& report, const TextOptions& options);
// The groups the gate counts (fails_gate), each with its headline and its
// stack from the program's innermost frame (frames keep their numbers): the
// message of a per-test gate (GoogleTest listener, pytest plugin).
std::string render_gate_failures(const report::Report& report, const TextOptions& options);
// The sites that grew during a memory budget's window (a test over its
// budget), each with its growth and its stack from the program's innermost frame.
std::string render_grown_sites(const std::vector<report::PeakGroup>& sites, int device, const TextOptions& options);
}  // namespace cudaleak::render
