# Two processes under torch.distributed.run, one per GPU, an all-reduce over
# NCCL, then destroy_process_group: the same stdout and status alone and
# under cudaleak (one report per process of the tree). NVLink multicast
# stays off (the GPU machines do not offer it).
# REQUIRES: gpus>=2, torch
# ENV: NCCL_NVLS_ENABLE=0
# ENV: TORCH_SYMM_MEM_DISABLE_MULTICAST=1
# ENV: NVSHMEM_DISABLE_NVLS=1
# RUN: %root/tests/cases/tools/plain_and_traced.sh %t/nccl_2gpu %run -o %t/reports/nccl_2gpu.%p.json -- %python -m torch.distributed.run --nproc_per_node=2 %root/tests/gpu/frameworks/nccl_allreduce.py
# CHECK: nccl_2gpu: same status (
# CHECK: nccl_2gpu: same stdout
# CHECK-NONE: differs
