// The fork protocol of the preload library, in one place (as LeakSanitizer's
// BeforeFork/AfterFork and memray's Tracker fork handlers): every lock the
// library has is taken, in one fixed order, before fork() and released in
// both the parent and the child, so that a child never inherits a lock held
// by a thread that does not exist there. Then the child drops what it
// inherited (records, OOM events, growth history, checkpoints, marks, views)
// and reports under its own pid.
//
// The locks and their order are the runtime object's (runtime.h), a thread
// that holds one taking only later ones:
//   report writer -> gate config -> checkpoints -> growth -> marks
//   -> OOM events -> Python views -> Python frames -> tracker
//   (side state -> stack depot -> registry shards -> timeline)
#pragma once

namespace cudaleak::fork_protocol {

void install();  // pthread_atfork, once at start-up

}  // namespace cudaleak::fork_protocol

namespace cudaleak {
// The lifecycle's part of the protocol, in the child (defined in lifecycle.cpp,
// which installs the protocol).
void lifecycle_after_fork_in_child();
}  // namespace cudaleak
