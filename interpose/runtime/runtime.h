// The one owner of the preload's mutable state. Built on first use (by the
// library constructor, or by the first hook when another library's
// constructor reaches CUDA first) and never destroyed: hooks and reports run
// during exit, after static destructors.
//
// Its members are listed in lock order, outermost first: a report holds the
// report lock while it takes the others, and the tracker's locks are the
// innermost. The fork protocol (fork_protocol.h) takes every lock in this
// order before fork() and releases them in reverse in both parent and child;
// the child then forgets what it inherited (reset_in_child()).
//
// Lower layers see only their own part: the tracker gets its state, and the
// base layer the options, through bind() when this object is built.
#pragma once
#include <string>

#include "interpose/runtime/checkpoints.h"
#include "interpose/runtime/gate_config.h"
#include "interpose/runtime/growth.h"
#include "interpose/runtime/marks.h"
#include "interpose/runtime/oom_monitor.h"
#include "interpose/runtime/python_view.h"
#include "interpose/runtime/report_serial.h"
#include "interpose/base/state.h"
#include "interpose/track/tracker_state.h"

namespace cudaleak {

class Runtime {
 public:
  Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  Options options;  // parsed once while initializing, read-only after
  ReportSerial reports;
  GateConfigCache gate;
  checkpoints::Names checkpoints;
  growth::History growth;
  marks::Log marks;
  oom::Monitor oom;
  python_view::Views python_view;
  // (pyframes' interned Python frames: their lock comes here, see lock_all())
  tracker::State tracker;

  // A mark on the timeline now.
  void mark(report::MarkType type, const std::string& name);

  // The fork protocol's three steps.
  void lock_all();
  void unlock_all();
  void reset_in_child();
};

Runtime& runtime();

}  // namespace cudaleak
