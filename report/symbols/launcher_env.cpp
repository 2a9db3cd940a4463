#include "report/symbols/launcher_env.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>

namespace cudaleak::symbols {

namespace {

struct Launcher {
  const char* name;
  const char* rank;
  const char* local_rank;
  const char* world_size;
};

// Innermost launchers first (launcher_env.h says why).
constexpr Launcher kLaunchers[] = {
    {"torchrun", "RANK", "LOCAL_RANK", "WORLD_SIZE"},
    {"openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_SIZE"},
    {"pmi", "PMI_RANK", "MPI_LOCALRANKID", "PMI_SIZE"},
    {"slurm", "SLURM_PROCID", "SLURM_LOCALID", "SLURM_NTASKS"},
};

// A plain decimal number below ten million (no job has more ranks); -1 otherwise.
int number(const char* text) {
  if (!text || !*text) return -1;
  long value = 0;
  for (const char* p = text; *p; ++p) {
    if (*p < '0' || *p > '9' || p - text >= 7) return -1;
    value = value * 10 + (*p - '0');
  }
  return int(value);
}

}  // namespace

JobPlace job_place(const std::function<const char*(const char*)>& lookup) {
  JobPlace place;
  // The job's own name, where a launcher gives one.
  for (const char* name : {"TORCHELASTIC_RUN_ID", "OMPI_MCA_ess_base_jobid", "SLURM_JOB_ID", "PMI_KVSNAME"})
    if (const char* id = lookup(name); id && *id) {
      place.job_id = std::string(name) + "=" + id;
      break;
    }
  for (const Launcher& l : kLaunchers) {
    int rank = number(lookup(l.rank));
    if (rank < 0) continue;
    place.rank = rank;
    place.local_rank = number(lookup(l.local_rank));
    place.world_size = std::max(0, number(lookup(l.world_size)));
    place.launcher = l.name;
    return place;
  }
  for (const Launcher& l : kLaunchers)
    if (int local = number(lookup(l.local_rank)); local >= 0) {
      place.local_rank = local;
      place.launcher = l.name;
      break;
    }
  return place;
}

JobPlace job_place_of_environ(std::string_view block) {
  std::map<std::string, std::string, std::less<>> vars;
  for (size_t start = 0; start < block.size();) {
    size_t end = block.find('\0', start);
    if (end == std::string_view::npos) end = block.size();
    std::string_view entry = block.substr(start, end - start);
    if (size_t eq = entry.find('='); eq != std::string_view::npos)
      vars.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
    start = end + 1;
  }
  return job_place([&](const char* name) -> const char* {
    auto it = vars.find(std::string_view(name));
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

namespace {

// A process's environment block, bounded; empty when it cannot be read.
std::string environ_of(int pid) {
  std::string block;
  if (pid <= 0) return block;
  // /proc files report a size of 0: read until the end.
  std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
  char buf[4096];
  while (in && block.size() < (size_t(1) << 20) && in.read(buf, sizeof buf).gcount() > 0)
    block.append(buf, size_t(in.gcount()));
  return block;
}

}  // namespace

int rank_of_process(int pid) {
  if (pid <= 0) return -1;
  const JobPlace theirs = job_place_of_environ(environ_of(pid));
  // Another job's rank (the same user's other run on this GPU) is not a rank here.
  static const std::string mine = job_place([](const char* name) {
                                    return static_cast<const char*>(std::getenv(name));
                                  }).job_id;
  if (!mine.empty() && !theirs.job_id.empty() && mine != theirs.job_id) return -1;
  return theirs.rank;
}

// Whether a process has the CUDA driver mapped: a rank's own process, not a
// shell or launcher that started it.
bool maps_cuda_driver(int pid) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  std::string line;
  for (size_t lines = 0; lines < 200000 && std::getline(maps, line); ++lines)
    if (line.find("/libcuda.so") != std::string::npos) return true;
  return false;
}

JobPlace job_place_of_this_process() {
  JobPlace mine = job_place([](const char* name) { return static_cast<const char*>(std::getenv(name)); });
  if (mine.rank < 0) return mine;
  const int parent = getppid();
  const JobPlace theirs = job_place_of_environ(environ_of(parent));
  if (theirs.rank == mine.rank && theirs.launcher == mine.launcher && maps_cuda_driver(parent)) return JobPlace{};
  return mine;
}

}  // namespace cudaleak::symbols
