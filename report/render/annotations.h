// Leak groups (and out-of-memory events) as CI annotations that need no
// code-scanning service: GitHub Actions workflow commands
// (`::error file=F,line=L,title=T::message`, printed to a step's output) and
// GitLab's code-quality report (a JSON array, the `codequality` artifact).
// Located, as SARIF is, at the program's frame nearest the allocation,
// relative to the source root when under it.
#pragma once
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::render {

std::string github_annotations(const std::vector<report::Report>& reports, const std::string& source_root = "");
std::string gitlab_code_quality(const std::vector<report::Report>& reports, const std::string& source_root = "");

}  // namespace cudaleak::render
