# Any catchable signal to the launcher reaches the program, which never
# outlives it. The program dies of each (TERM, HUP, USR2, ALRM, PIPE), with
# its final report where cudaleak writes one (TERM, HUP), then the launcher
# dies of it too, its temporary directory removed. The snapshot signal: the
# program writes a snapshot and goes on, until SIGTERM ends it with its
# final report. SIGKILL cannot be passed on: the program is told to end with
# SIGTERM, and writes its report. Each run: start the launcher, send it the
# signals 0.3 s apart, wait at most 5 s for the program to be gone, print
# the launcher's status, an orphan, the reports and the temporary files.
# RUN: mkdir %t/tmp; for signals in TERM HUP USR2 ALRM PIPE 'USR1 TERM' KILL; do name=$(echo $signals | tr ' ' _); rm -f %t/pid; TMPDIR=%t/tmp %run -o %t/$name/r.%p.json -- %build/tests/e2e/wait_for_signal %t/pid & L=$!; while [ ! -s %t/pid ]; do sleep 0.05; done; P=$(cat %t/pid); for s in $signals; do kill -$s $L; sleep 0.3; done; wait $L; st=$?; i=0; while kill -0 $P 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; kill -0 $P 2>/dev/null && echo "$name: orphan"; echo "$name: status=$st reports=$(ls %t/$name 2>/dev/null | wc -l)"; [ $name = KILL ] || echo "$name: tmp=$(ls -A %t/tmp | wc -l)"; done 2> /dev/null
# CHECK: TERM: status=143 reports=1
# CHECK: TERM: tmp=0
# CHECK: HUP: status=129 reports=1
# CHECK: HUP: tmp=0
# CHECK: USR2: status=140 reports=0
# CHECK: USR2: tmp=0
# CHECK: ALRM: status=142 reports=0
# CHECK: ALRM: tmp=0
# CHECK: PIPE: status=141 reports=0
# CHECK: PIPE: tmp=0
# CHECK: USR1_TERM: status=143 reports=2
# CHECK: USR1_TERM: tmp=0
# CHECK: KILL: status=137 reports=1
# CHECK-NONE: orphan
# RUN: %expr %t/TERM 'r["reason"] == "termination"'
# CHECK: holds:
# RUN: %expr %t/HUP 'r["reason"] == "termination"'
# CHECK: holds:
# RUN: %expr %t/USR1_TERM 'sorted(x["reason"] for x in reports) == ["signal", "termination"]'
# CHECK: holds:
# RUN: %expr %t/KILL 'r["reason"] == "termination"'
# CHECK: holds:
