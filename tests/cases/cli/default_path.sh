# The default report path (cudaleak.PID.json) is the launcher's too, and the
# summary names where it is: the whole path when the program ran elsewhere,
# the short name when run where it is written.
# RUN: mkdir %t/away && cd %t/away && %run -- /bin/sh -c 'cd / && exec %build/samples/sample_pinned_leak_shared' 2> %t/err.txt; f=$(ls %t/away); echo "files: $f"; grep -c "Report: %t/away/$f" %t/err.txt
# CHECK-RE: files: cudaleak\.[0-9]+\.json\n1\n\Z
# RUN: mkdir %t/here && cd %t/here && %run -- %build/samples/sample_pinned_leak_shared 2> %t/err.txt; f=$(ls %t/here); echo "files: $f"; grep -c "Report: $f" %t/err.txt
# CHECK-RE: files: cudaleak\.[0-9]+\.json\n1\n\Z
