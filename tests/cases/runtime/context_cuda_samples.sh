# The context cudaleak learns against the driver's answer (--check-context)
# in NVIDIA's cuda-samples on a real GPU ($CUDA_SAMPLES: a checkout): each
# single-file sample that needs no graphics or extra library, built with
# nvcc's default static cudart (the runtime binding contexts itself), runs
# alone and traced in its own folder. The same status both ways, and no
# creation placed on another context or device than the driver's. A sample
# that does not build here is named and left out (this file is the script
# the case runs: `build`, then `run`).
# REQUIRES: gpu, nvcc, cuda-samples
# RUN: bash %s build %t
# CHECK-NONE: not built: simpleIPC
# CHECK-NONE: not built: streamOrderedAllocationIPC
# CHECK-RE: built: [1-9][0-9]* of 52
# RUN: bash %s run %t %run --check-context --print-summary=true
# CHECK-RE: matrixMul: [0-9]+ creations placed, 0 differ from the driver
# CHECK-RE: ran: [1-9][0-9]*\n
# CHECK-NONE: status differs
# CHECK-NONE: placed elsewhere
# CHECK-NONE: no check_context line
set -u
samples=(
  0_Introduction/asyncAPI 0_Introduction/clock 0_Introduction/fp16ScalarProduct 0_Introduction/matrixMul
  0_Introduction/simpleAWBarrier 0_Introduction/simpleAssert 0_Introduction/simpleAttributes
  0_Introduction/simpleCooperativeGroups 0_Introduction/simpleCubemapTexture 0_Introduction/simpleHyperQ
  0_Introduction/simpleIPC 0_Introduction/simpleLayeredTexture 0_Introduction/simpleMultiCopy
  0_Introduction/simpleOccupancy 0_Introduction/simplePitchLinearTexture 0_Introduction/simplePrintf
  0_Introduction/simpleStreams 0_Introduction/simpleSurfaceWrite 0_Introduction/simpleTemplates
  0_Introduction/simpleTexture 0_Introduction/simpleVoteIntrinsics 0_Introduction/simpleZeroCopy
  0_Introduction/systemWideAtomics 0_Introduction/vectorAdd 2_Concepts_and_Techniques/inlinePTX
  2_Concepts_and_Techniques/interval 2_Concepts_and_Techniques/radixSortThrust
  2_Concepts_and_Techniques/reductionMultiBlockCG 2_Concepts_and_Techniques/segmentationTreeThrust
  2_Concepts_and_Techniques/shfl_scan 2_Concepts_and_Techniques/streamOrderedAllocation
  2_Concepts_and_Techniques/streamOrderedAllocationIPC 2_Concepts_and_Techniques/threadFenceReduction
  3_CUDA_Features/StreamPriorities 3_CUDA_Features/bf16TensorCoreGemm 3_CUDA_Features/binaryPartitionCG
  3_CUDA_Features/cdpSimplePrint 3_CUDA_Features/cdpSimpleQuicksort 3_CUDA_Features/cudaTensorCoreGemm
  3_CUDA_Features/dmmaTensorCoreGemm 3_CUDA_Features/globalToShmemAsyncCopy 3_CUDA_Features/graphConditionalNodes
  3_CUDA_Features/graphMemoryFootprint 3_CUDA_Features/graphMemoryNodes 3_CUDA_Features/immaTensorCoreGemm
  3_CUDA_Features/newdelete 3_CUDA_Features/simpleCudaGraphs 3_CUDA_Features/tf32TensorCoreGemm
  3_CUDA_Features/warpAggregatedAtomicsCG 6_Performance/LargeKernelParameter 6_Performance/alignedTypes
  6_Performance/transpose
)
what="$1" out="$2"
shift 2
tools="$(cd "$(dirname "$0")/../tools" && pwd)"
case "$what" in
build)
  mkdir -p "$out/bin"
  pids=()
  for s in "${samples[@]}"; do
    name=$(basename "$s")
    extra=()
    case $name in
    cdp*) extra=(-rdc=true -lcudadevrt) ;;
    *IPC) extra=("$CUDA_SAMPLES/Common/helper_multiprocess.cpp" -lcuda) ;;  # the samples' process helpers
    esac
    nvcc -arch="${CUDA_ARCH:-sm_90}" -O2 -std=c++17 -I"$CUDA_SAMPLES/Common" -o "$out/bin/$name" \
      "$CUDA_SAMPLES/Samples/$s/$name.cu" "${extra[@]}" > "$out/build.$name.log" 2>&1 &
    pids+=($!)
    if [ ${#pids[@]} -ge 12 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  done
  wait
  built=0
  for s in "${samples[@]}"; do
    name=$(basename "$s")
    if [ -x "$out/bin/$name" ]; then
      built=$((built + 1))
    else
      echo "not built: $name ($(tail -1 "$out/build.$name.log"))"
    fi
  done
  echo "built: $built of ${#samples[@]}"
  ;;
run)
  ran=0
  for s in "${samples[@]}"; do
    name=$(basename "$s")
    [ -x "$out/bin/$name" ] || continue
    ran=$((ran + 1))
    (cd "$CUDA_SAMPLES/Samples/$s" && TIMEOUT=300 "$tools/check_context.sh" "$out/$name" "$@" -o "$out/$name.%p.json" -- "$out/bin/$name")
  done
  echo "ran: $ran"
  ;;
esac
