#!/usr/bin/env python3
"""A stand-in for torchrun, mpirun and srun in tests: starts the processes of
one node of a job with the launcher's variables and waits for them all.

  fake_torchrun.py [--nproc-per-node P] [--nnodes N] [--node-rank R]
                   [--launcher torchrun|openmpi|pmi|slurm] [--others-hold SIZE]
                   -- PROGRAM [ARGS...]

Ranks of node R are R*P .. R*P+P-1, started in order. --others-hold SIZE:
the simulated GPU of each rank shows the ranks started before it as other
processes holding SIZE on device 0 (CUDALEAK_SIM_OTHER_PROCESS), as ranks
sharing one GPU see each other. The exit status is 0 when every rank exited
with 0, else 1 (torchrun's ChildFailedError), as torchrun's.
"""
import argparse
import os
import subprocess
import sys

VARIABLES = {  # rank, local rank, world size
    "torchrun": ("RANK", "LOCAL_RANK", "WORLD_SIZE"),
    "openmpi": ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_SIZE"),
    "pmi": ("PMI_RANK", "MPI_LOCALRANKID", "PMI_SIZE"),
    "slurm": ("SLURM_PROCID", "SLURM_LOCALID", "SLURM_NTASKS"),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nproc-per-node", type=int, default=2)
    parser.add_argument("--nnodes", type=int, default=1)
    parser.add_argument("--node-rank", type=int, default=0)
    parser.add_argument("--launcher", choices=sorted(VARIABLES), default="torchrun")
    parser.add_argument("--others-hold", default="")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no program given")
    rank_var, local_var, world_var = VARIABLES[args.launcher]
    world = args.nnodes * args.nproc_per_node
    children = []
    for local in range(args.nproc_per_node):
        env = dict(os.environ)
        for names in VARIABLES.values():  # only this launcher's variables, as a real one sets
            for name in names:
                env.pop(name, None)
        env[rank_var] = str(args.node_rank * args.nproc_per_node + local)
        env[local_var] = str(local)
        env[world_var] = str(world)
        if args.launcher == "torchrun":
            env.update(LOCAL_WORLD_SIZE=str(args.nproc_per_node), GROUP_RANK=str(args.node_rank),
                       MASTER_ADDR="127.0.0.1", MASTER_PORT="29500", TORCHELASTIC_RUN_ID="fake")
        if args.others_hold and children:
            env["CUDALEAK_SIM_OTHER_PROCESS"] = ",".join(
                "%d:rank_worker:%s:0" % (c.pid, args.others_hold) for c in children)
        children.append(subprocess.Popen(command, env=env))
    statuses = [c.wait() for c in children]
    sys.exit(0 if all(s == 0 for s in statuses) else 1)


if __name__ == "__main__":
    main()
