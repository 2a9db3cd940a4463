// Where a process stands in a distributed job, read from the variables its
// launcher exported: torchrun (RANK, LOCAL_RANK, WORLD_SIZE), Open MPI
// (OMPI_COMM_WORLD_RANK, _LOCAL_RANK, _SIZE), MPICH and Intel MPI through PMI
// (PMI_RANK, MPI_LOCALRANKID, PMI_SIZE) and SLURM (SLURM_PROCID,
// SLURM_LOCALID, SLURM_NTASKS).
#pragma once
#include <functional>
#include <string>
#include <string_view>

namespace cudaleak::symbols {

struct JobPlace {
  int rank = -1;         // in the job
  int local_rank = -1;   // on its host
  int world_size = 0;    // ranks in the job; 0 unknown
  std::string launcher;  // "torchrun", "openmpi", "pmi", "slurm"; "" when none said
  // The job's name where the launcher exports one ("TORCHELASTIC_RUN_ID=...",
  // Open MPI's job id, SLURM_JOB_ID, PMI_KVSNAME): tells two jobs apart.
  std::string job_id;
  bool operator==(const JobPlace&) const = default;
};

// The first launcher, in the order above, whose rank variable holds a rank
// gives all three numbers: torchrun started by srun, or a program started by
// mpirun inside a SLURM allocation, sees the innermost launcher's variables
// and the outer one's, and its rank is the innermost's. A value that is not
// a plain decimal number is ignored. Without any rank, a local rank alone is
// kept (torchrun's LOCAL_RANK without RANK). `lookup` returns a variable's
// value or nullptr.
JobPlace job_place(const std::function<const char*(const char*)>& lookup);

// The same from another process's environment block, as /proc/PID/environ
// holds it (NUL-separated NAME=value).
JobPlace job_place_of_environ(std::string_view environ_block);

// Another process's rank on this host, from /proc/PID/environ; -1 when it
// cannot be read (another user's process, a process gone), names none, or
// names another job than this process's (both saying which).
int rank_of_process(int pid);

// This process's place: its own variables, unless its parent holds the same
// rank of the same launcher and has the CUDA driver loaded. A process a rank
// started (a DataLoader worker, a compile worker) inherits the rank's
// variables but is not a rank of the job: its report is a process of its
// own, and the rank is counted once. A shell or script between the launcher
// and the rank (`srun ./run.sh`) loads no driver, and the rank stays one.
JobPlace job_place_of_this_process();

}  // namespace cudaleak::symbols
