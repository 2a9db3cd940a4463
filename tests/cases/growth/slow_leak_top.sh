# `cudaleak top --once` names the growing site while the program runs, under
# the program's pid (the weights flat, the leak with its rate), and a
# snapshot (SIGUSR1) prints it in cudaleak's own text, which goes to a log
# file here, under the same pid.
# REQUIRES: simulated
# RUN: %run --growth-interval-ms 100 --log-path %t/log -o %t/r.json -- %build/tests/e2e/slow_leak 8 20 %t/ready & L=$!; i=0; while [ ! -s %t/ready ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; sleep 3; P=$(head -1 %t/ready); %cudaleak top --once $P > %t/top.txt; echo top=$?; kill -USR1 $P; wait $L; grep -q "pid $P slow_leak" %t/top.txt && echo "top names pid"; grep -q "==$P==cudaleak: 1 site grew steadily" %t/log.$P && echo "log names pid"; cat %t/top.txt %t/log.$P
# CHECK: top=0
# CHECK: top names pid
# CHECK: log names pid
# CHECK: flat
# CHECK: /min for
# CHECK: leak_a_little
# CHECK: cudaleak: snapshot of
