// The causes report/oom/ decides for an out-of-memory event, each with the
// sentence report/render/ says for it: what a report written by the process
// keeps.
#pragma once
#include <vector>

#include "report/model/report.h"
#include "report/oom/diagnose.h"
#include "report/render/cause_words.h"

inline std::vector<cudaleak::report::Diagnosis> said_causes(cudaleak::report::OomEvent e) {
  e.diagnosis = cudaleak::oom::diagnose(e);
  cudaleak::render::say_causes(e);
  return e.diagnosis;
}
