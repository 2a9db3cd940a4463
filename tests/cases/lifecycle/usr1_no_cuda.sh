# A process that never uses CUDA keeps SIGUSR1's default action: it dies of
# it (status 128 + 10), as without cudaleak, under plain preload and under
# the launcher, and writes nothing.
# RUN: CUDALEAK_OPTIONS=output=%t/p.%p.json %preload /bin/sh -c 'sleep 3 & p=$!; sleep 0.3; kill -USR1 $p; wait $p; echo status=$?'
# CHECK-RE: \Astatus=138\n
# RUN: %run -o %t/r.%p.json -- /bin/sh -c 'sleep 3 & p=$!; sleep 0.3; kill -USR1 $p; wait $p; echo status=$?'
# CHECK-RE: \Astatus=138\n
# RUN: ls %t
# CHECK-RE: \Alog.txt\n\Z
