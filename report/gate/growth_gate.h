// The gate for slow leaks (fail_on_growth, docs/ci.md#slow-leaks): the run
// fails when a site of the report's timelines grew steadily
// (report/model/site_growth.h) by at least a number of bytes, or at least a
// number of bytes per minute, unless a suppression rule hides it or the
// baseline lists its site, as for the leak gate.
#pragma once
#include <cstdint>
#include <string>

#include "report/gate/gate_config.h"
#include "report/model/report.h"

namespace cudaleak::gate {

// "64MiB", "2MiB/min", "1048576", "" (off); K, M, G are 1024-based as KiB,
// MiB, GiB. Returns why the text is wrong, or "" when it is right.
std::string parse_growth_threshold(const std::string& text, GrowthThreshold& out);

// Marks each steady site at or past the threshold that no rule hides and the
// baseline does not list (fails_gate, site, suppressed_by, baseline), and
// counts them in `result`.
void judge_growth(report::Report& report, const GateConfig& config, report::GateResult& result);

}  // namespace cudaleak::gate
