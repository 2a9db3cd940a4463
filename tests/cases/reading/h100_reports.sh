# Reports written on a real H100 (tests/fixtures/h100) read, regroup and
# render here: PyTorch's cuBLAS handle by function, a cuBLAS program's device
# memory by kind, an HTML page, and a diff of two programs (status 1: sites
# differ).
# RUN: %report %root/tests/fixtures/h100/torch_small.json --by function --top 3
# CHECK: at::cuda::getCurrentCUDABlasHandle()
# RUN: %report %root/tests/fixtures/h100/cublas_no_destroy.json --kind device
# CHECK: SUMMARY: cudaleak: 64.1 MiB leaked in 3 resources
# RUN: %report %root/tests/fixtures/h100/torch_small.json --format html -o %t/t.html && cat %t/t.html
# CHECK: <script id="cudaleak-data" type="application/json">{
# CHECK: getCurrentCUDABlasHandle
# RUN(exit=1): %cudaleak diff %root/tests/fixtures/h100/exception_leak_static.json %root/tests/fixtures/h100/cublas_no_destroy.json
# CHECK: new     device                0 B -> 64.1 MiB
# CHECK: 2 leak sites new or grown, 3 compared
