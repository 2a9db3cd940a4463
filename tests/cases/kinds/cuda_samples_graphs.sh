# NVIDIA's cuda-samples that use graphs, textures, surfaces and modules, on a
# real GPU ($CUDA_SAMPLES: a checkout), against their source:
# simpleCudaGraphs, graphMemoryNodes and graphMemoryFootprint destroy every
# graph; graphMemoryNodes overwrites its executable graph twice before
# destroying it (2 left); simpleCudaGraphs never destroys stream3 and its 3
# events; jacobiCudaGraphs builds one graph and its executable graph and
# destroys neither, and with -gpumethod=1 captures a new graph on every
# iteration and destroys none; vectorAddDrv's module is torn down with its
# context. No sample leaves graph memory, or module or library records of
# the runtime's own device code. (This file is the script the case runs:
# `build`, then `run`.)
# REQUIRES: gpu, nvcc, cuda-samples
# RUN: bash %s build %t
# CHECK: built: 9 of 9
# RUN: bash %s run %t %run
# CHECK: ran: 10
# RUN: for s in simpleCudaGraphs graphMemoryNodes graphMemoryFootprint simpleTexture simpleSurfaceWrite simpleCubemapTexture conjugateGradientCudaGraphs; do %expr %t/reports/$s \
# RUN:   'len(reports) == 1' \
# RUN:   '(count("graph"), count("graph_exec")) == ((0, 2) if r["process"]["argv"][0].endswith("graphMemoryNodes") else (0, 0))' \
# RUN:   '(count("graph_memory"), count("module"), count("library")) == (0, 0, 0)'; done
# CHECK-COUNT(21): holds:
# CHECK-NONE: FALSE
# RUN: %expr %t/reports/simpleCudaGraphs '(count("stream"), count("event")) == (1, 3)'
# CHECK: holds:
# RUN: %expr %t/reports/jacobiCudaGraphs 'len(reports) == 1 and (count("graph"), count("graph_exec")) == (1, 1)'
# CHECK: holds:
# RUN: %expr %t/reports/jacobiCudaGraphs_capture 'len(reports) == 1 and count("graph") == int(re.search(r"GPU iterations : (\d+)", text("%t/jacobiCudaGraphs_capture.out")).group(1))'
# CHECK: holds:
# RUN: %expr %t/reports/vectorAddDrv 'len(reports) == 1 and len([g for g in r["leaks"] if g["kind"] == "module" and g.get("released_by") == "context_destroy"]) == 1'
# CHECK: holds:
set -u
what="$1" out="$2"
shift 2
arch="-arch=${CUDA_ARCH:-sm_90}"
samples="$CUDA_SAMPLES/Samples"
case "$what" in
build)
  mkdir -p "$out/bin"
  b() { nvcc $arch -O2 -std=c++17 -I"$CUDA_SAMPLES/Common" -o "$out/bin/$1" "${@:2}" 2> "$out/build.$1.err" || echo "build failed: $1"; }
  b simpleCudaGraphs "$samples/3_CUDA_Features/simpleCudaGraphs/simpleCudaGraphs.cu"
  b graphMemoryNodes "$samples/3_CUDA_Features/graphMemoryNodes/graphMemoryNodes.cu"
  b graphMemoryFootprint "$samples/3_CUDA_Features/graphMemoryFootprint/graphMemoryFootprint.cu"
  b jacobiCudaGraphs "$samples/3_CUDA_Features/jacobiCudaGraphs/jacobi.cu" "$samples/3_CUDA_Features/jacobiCudaGraphs/main.cpp"
  b simpleTexture "$samples/0_Introduction/simpleTexture/simpleTexture.cu"
  b simpleSurfaceWrite "$samples/0_Introduction/simpleSurfaceWrite/simpleSurfaceWrite.cu"
  b simpleCubemapTexture "$samples/0_Introduction/simpleCubemapTexture/simpleCubemapTexture.cu"
  b conjugateGradientCudaGraphs "$samples/4_CUDA_Libraries/conjugateGradientCudaGraphs/conjugateGradientCudaGraphs.cu" \
    -lcublas -lcusparse
  nvcc $arch -fatbin -o "$out/bin/vectorAdd_kernel64.fatbin" "$samples/0_Introduction/vectorAddDrv/vectorAdd_kernel.cu"
  b vectorAddDrv "$samples/0_Introduction/vectorAddDrv/vectorAddDrv.cpp" -lcuda
  built=0
  for s in simpleCudaGraphs graphMemoryNodes graphMemoryFootprint jacobiCudaGraphs simpleTexture simpleSurfaceWrite \
           simpleCubemapTexture conjugateGradientCudaGraphs vectorAddDrv; do
    [ -x "$out/bin/$s" ] && built=$((built + 1))
  done
  echo "built: $built of 9"
  ;;
run)
  ran=0
  run() {  # NAME PROGRAM ARGS...: under cudaleak, in the folder that holds the sample's data
    local name=$1
    shift
    (cd "$out/bin" && "$@" > "$out/$name.out" 2> "$out/$name.err")
    echo "$name: status $?"
    ran=$((ran + 1))
  }
  launcher=("$@")
  for s in simpleCudaGraphs graphMemoryNodes graphMemoryFootprint jacobiCudaGraphs simpleTexture simpleSurfaceWrite \
           simpleCubemapTexture conjugateGradientCudaGraphs vectorAddDrv; do
    [ -x "$out/bin/$s" ] || continue
    dir="$(dirname "$(ls "$samples"/*/$s/*.cu* 2> /dev/null | head -1)")"
    cp -r "$dir/data" "$out/bin/" 2> /dev/null
    run "$s" "${launcher[@]}" -o "$out/reports/$s/r.%p.json" -- "./$s"
  done
  [ -x "$out/bin/jacobiCudaGraphs" ] &&
    run jacobiCudaGraphs_capture "${launcher[@]}" -o "$out/reports/jacobiCudaGraphs_capture/r.%p.json" -- ./jacobiCudaGraphs -gpumethod=1
  echo "ran: $ran"
  ;;
esac
