#!/usr/bin/env bash
# The CUDA object kinds on a real GPU: tests/gpu/kinds programs (every kind,
# library handles in C++ linked dynamically and statically and through
# Python's ctypes, memory shared between two processes) in `leak` and `clean`
# modes, and cuda-samples that use graphs, textures, surfaces and modules,
# each under cudaleak and compute-sanitizer --leak-check full; then
# tests/gpu/kinds/check_kinds.py asserts the results.
# Usage: scripts/gpu-validate-kinds.sh STAGE_DIR OUT_DIR [CUDA_SAMPLES_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
S="$(realpath "$1")"
O="$(realpath -m "$2")"
CS="${3:-}"
CUDA=${CUDA_ROOT:-/usr/local/cuda}
mkdir -p "$O/bin"
export PATH="$CUDA/bin:$PATH"
ARCH=${CUDA_ARCH:-sm_90}
K=tests/gpu/kinds

nvcc -arch=$ARCH -O2 -o "$O/bin/kinds" $K/kinds.cu -lcuda || exit 1
nvcc -arch=$ARCH -O2 -o "$O/bin/sharing" $K/sharing.cu -lcuda || exit 1
# Modules with device globals (the simulated GPU's program and kernels):
# a cubin, an uncompressed fatbin and compressed ones (Zstandard, LZ4).
M=tests/e2e/programs
g++ -std=c++20 -O2 -I"$CUDA/include" -o "$O/bin/module_globals" $M/module_globals.cpp -L"$CUDA/lib64/stubs" -lcuda || exit 1
nvcc -arch=$ARCH -cubin -o "$O/bin/globals.cubin" $M/module_globals_kernels.cu || exit 1
nvcc -arch=$ARCH -fatbin -compress-mode=none -o "$O/bin/globals.fatbin" $M/module_globals_kernels.cu || exit 1
nvcc -arch=$ARCH -fatbin -compress-mode=size -Xfatbin -compress-all -o "$O/bin/globals.compressed.fatbin" \
  $M/module_globals_kernels.cu || exit 1
nvcc -arch=$ARCH -fatbin -compress-mode=speed -Xfatbin -compress-all -o "$O/bin/globals.lz4.fatbin" \
  $M/module_globals_kernels.cu || exit 1
quiet="-Xcompiler -Wno-deprecated-declarations"  # cuSOLVER sparse
nvcc -arch=$ARCH -O2 $quiet -o "$O/bin/library_handles" $K/library_handles.cu \
  -lcublas -lcublasLt -lcufft -lcurand -lcusparse -lcusolver || exit 1
# The same program with NVIDIA's static archives: no create reaches cudaleak.
nvcc -arch=$ARCH -O2 $quiet -o "$O/bin/static_handles" $K/library_handles.cu \
  -lcublas_static -lcublasLt_static -lcufft_static -lcurand_static -lcusparse_static \
  -lcusolver_static -lcusolver_lapack_static -lculibos || exit 1

run() {  # NAME COMMAND...: under cudaleak, then compute-sanitizer; summaries printed
  local name="$1"
  shift
  "$S/bin/cudaleak" run -o "$O/$name.%p.json" -- "$@" >"$O/$name.out" 2>"$O/$name.err"
  echo "== $name (status $?)"
  grep -h "never destroyed\|never freed\|SUMMARY" "$O/$name.err" | head -12 | sed 's/^/   /'
  if [ "${SANITIZER:-1}" = 1 ]; then
    compute-sanitizer --leak-check full --print-limit 3 "$@" >"$O/$name.sanitizer" 2>&1
    grep -h "LEAK SUMMARY\|ERROR SUMMARY" "$O/$name.sanitizer" | sed 's/^/   compute-sanitizer: /'
  fi
}

for mode in leak clean; do
  run kinds.$mode "$O/bin/kinds" $mode
  run library_handles.$mode "$O/bin/library_handles" $mode
  SANITIZER=0 run static_handles.$mode "$O/bin/static_handles" $mode
  SANITIZER=0 run sharing.$mode "$O/bin/sharing" $mode
  SANITIZER=0 run module_globals.$mode "$O/bin/module_globals" $mode "$O/bin/globals.cubin" "$O/bin/globals.fatbin" verify
  SANITIZER=0 run module_globals_compressed.$mode "$O/bin/module_globals" $mode "$O/bin/globals.cubin" \
    "$O/bin/globals.compressed.fatbin" verify
  SANITIZER=0 run module_globals_lz4.$mode "$O/bin/module_globals" $mode "$O/bin/globals.cubin" \
    "$O/bin/globals.lz4.fatbin" verify
  SANITIZER=0 run python_handles.$mode python3 $K/library_handles.py $mode
done

if [ -n "$CS" ]; then
  inc="-I$CS/Common"
  b() { nvcc -arch=$ARCH -O2 -std=c++17 $inc -o "$O/bin/$1" "${@:2}" 2>"$O/build.$1.err" || echo "build failed: $1"; }
  b simpleCudaGraphs "$CS/Samples/3_CUDA_Features/simpleCudaGraphs/simpleCudaGraphs.cu"
  b graphMemoryNodes "$CS/Samples/3_CUDA_Features/graphMemoryNodes/graphMemoryNodes.cu"
  b graphMemoryFootprint "$CS/Samples/3_CUDA_Features/graphMemoryFootprint/graphMemoryFootprint.cu"
  b jacobiCudaGraphs "$CS/Samples/3_CUDA_Features/jacobiCudaGraphs/jacobi.cu" \
    "$CS/Samples/3_CUDA_Features/jacobiCudaGraphs/main.cpp"
  b simpleTexture "$CS/Samples/0_Introduction/simpleTexture/simpleTexture.cu"
  b simpleSurfaceWrite "$CS/Samples/0_Introduction/simpleSurfaceWrite/simpleSurfaceWrite.cu"
  b simpleCubemapTexture "$CS/Samples/0_Introduction/simpleCubemapTexture/simpleCubemapTexture.cu"
  b conjugateGradientCudaGraphs "$CS/Samples/4_CUDA_Libraries/conjugateGradientCudaGraphs/conjugateGradientCudaGraphs.cu" \
    -lcublas -lcusparse
  nvcc -arch=$ARCH -fatbin -o "$O/bin/vectorAdd_kernel64.fatbin" "$CS/Samples/0_Introduction/vectorAddDrv/vectorAdd_kernel.cu"
  b vectorAddDrv "$CS/Samples/0_Introduction/vectorAddDrv/vectorAddDrv.cpp" -lcuda
  for s in simpleCudaGraphs graphMemoryNodes graphMemoryFootprint jacobiCudaGraphs \
           simpleTexture simpleSurfaceWrite simpleCubemapTexture conjugateGradientCudaGraphs vectorAddDrv; do
    [ -x "$O/bin/$s" ] || continue
    dir="$(dirname "$(ls "$CS"/Samples/*/$s/*.cu* 2>/dev/null | head -1)")"
    (cd "$O/bin" && cp -r "$dir/data" . 2>/dev/null; run sample.$s ./$s)
  done
  [ -x "$O/bin/jacobiCudaGraphs" ] && (cd "$O/bin" && run sample.jacobiCudaGraphs_capture ./jacobiCudaGraphs -gpumethod=1)
fi
python3 $K/check_kinds.py "$O"
status=$?
# Only the reports and the summaries come back: the binaries stay.
rm -rf "$O/bin"
tar -czf "$O.tar.gz" -C "$(dirname "$O")" "$(basename "$O")" && rm -rf "$O"
exit $status
