# cudaleak beside the sanitizers on a real GPU (issue 51): the samples
# exception_leak, loop_leak and stream_event_leak built with ASan and with
# TSan host code (nvcc -Xcompiler -fsanitize=...), with the static and the
# shared cudart, each run alone and under cudaleak: the same stdout and
# status, no sanitizer complaint the run alone does not have, and the leak
# told ("never" freed or destroyed). (This file is the script the case runs:
# `build`, then `run`.)
# REQUIRES: gpu, nvcc
# ENV: ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0
# RUN: bash %s build %t
# CHECK: built: 12 of 12
# RUN: bash %s run %t %run
# CHECK-COUNT(12): : same status
# CHECK-COUNT(12): : same stdout
# CHECK-COUNT(12): : no new 'AddressSanitizer'
# CHECK-COUNT(12): : no new 'ThreadSanitizer'
# CHECK-COUNT(12): : no new 'does not come first'
# CHECK-COUNT(12): : cudaleak's text says 'never'
# CHECK-NONE: differs
# CHECK-NONE: times traced
# CHECK-NONE: in cudaleak's text
# CUDA needs ASan's shadow gap left unprotected to map its own memory (ENV).
set -u
what="$1" out="$2"
shift 2
root="$(cd "$(dirname "$0")/../../.." && pwd)"
cuda="${CUDA_ROOT:-/usr/local/cuda}"
for san in address thread; do
  for rt in static shared; do
    for s in exception_leak loop_leak stream_event_leak; do
      bin="$out/bin/${s}_${san}_${rt}"
      case "$what" in
      build)
        mkdir -p "$out/bin"
        if ! nvcc -g -cudart $rt -Xcompiler "-fsanitize=$san,-fno-omit-frame-pointer" -Xlinker "-fsanitize=$san" \
            -o "$bin" "$root/samples/$s.cu" > "$bin.build.log" 2>&1; then
          # nvcc passes -Xlinker to ld: link through g++ instead.
          nvcc -g -cudart $rt -Xcompiler "-fsanitize=$san,-fno-omit-frame-pointer" -c -o "$bin.o" "$root/samples/$s.cu" &&
            g++ -fsanitize=$san -o "$bin" "$bin.o" -L"$cuda/lib64" \
              $([ $rt = static ] && echo -lcudart_static -ldl -lrt -lpthread || echo -lcudart) >> "$bin.build.log" 2>&1 ||
            { echo "build failed: $bin"; cat "$bin.build.log"; }
        fi
        ;;
      run)
        # freed (memory) or destroyed (streams, events)
        "$root/tests/cases/tools/beside_sanitizer.sh" "$bin" never "$@" -o "$bin.%p.json" -- "$bin"
        ;;
      esac
    done
  done
done
[ "$what" = build ] && echo "built: $(ls "$out/bin" | grep -cv '\.') of 12"
exit 0
