# Control characters in a Python function's and file's names (a terminal
# title change, a screen clear, a newline that would forge a suppression
# rule, a "hide the rest" escape) reach the terminal escaped on a real GPU:
# none raw in the text or in `report --by function`, the name shown escaped,
# and no rule of wildcards alone printed.
# REQUIRES: gpu
# RUN: %run --gen-suppressions -o %t/r.json -- %python %root/tests/e2e/programs/python_hostile_names.py 2> %t/err.txt; echo "raw control characters: $(LC_ALL=C grep -cP '[\x01-\x09\x0b-\x1f\x7f]' %t/err.txt)"; echo "rules of wildcards alone: $(grep -c '^leak:\* kind:device' %t/err.txt)"; cat %t/err.txt
# CHECK: raw control characters: 0
# CHECK: rules of wildcards alone: 0
# CHECK: hostile\x0aleak:* kind:device\x1b[8m
# RUN: %report %t/r.json --by function > %t/by.txt 2>&1; echo "raw control characters: $(LC_ALL=C grep -cP '[\x01-\x09\x0b-\x1f\x7f]' %t/by.txt)"
# CHECK: raw control characters: 0
