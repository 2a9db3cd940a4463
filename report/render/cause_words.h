// The likely causes of an out-of-memory in words: each report::Diagnosis
// that report/oom/diagnose.h decided, said from its data and its event's
// numbers (docs/oom.md).
#pragma once
#include <string>

#include "report/model/report.h"

namespace cudaleak::render {

// The sentence of diagnosis `d` of event `e`: the one it came with (a report
// read back keeps only that), else the one its data makes.
std::string cause_text(const report::OomEvent& e, const report::Diagnosis& d);

// Gives every diagnosis of `e` its sentence (Diagnosis::message), so that the
// report written keeps it: done where the diagnoses are made, by the process
// that ran out of memory.
void say_causes(report::OomEvent& e);

// Another process on the device as the text names it: "pid 812 (rank 1,
// python)", "pid 812 (python)", "pid 812".
std::string describe_other_process(const report::OtherProcessUsage& other);

}  // namespace cudaleak::render
