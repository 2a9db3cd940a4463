#pragma once
// This process's number in the /proc that is mounted, which is not getpid()
// where /proc belongs to another PID namespace (`unshare --pid` without a
// /proc of its own, some sandboxes and CI runners): there /proc/<getpid()>
// is some other process. Async-signal-safe, no allocation.
namespace cudaleak {

// The number /proc/self links to; getpid() where it cannot be read.
int proc_self_pid();

// Whether /proc/self names this process by another namespace's number.
bool proc_of_another_namespace();

}  // namespace cudaleak
