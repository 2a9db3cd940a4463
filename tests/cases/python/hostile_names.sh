# Control characters in names and paths reach the terminal escaped, and
# never forge a rule: tests/e2e/programs/python_hostile_names.py gives its
# code a file name with a terminal title change and a screen clear, and a
# function name with a newline that would forge a suppression rule and a
# "hide the rest" escape; the report's own path carries a title change.
# The generated rule stays one line that names the function, never
# "leak:*" alone; the JSON keeps the names as they are. A control is raw
# below 0x20 (a newline aside), at 0x7f, or a C1 character (U+0080-U+009F).
# RUN: %run --gen-suppressions -o %t/"$(printf 'r\033]0;title\007')".json -- %python %root/tests/e2e/programs/python_hostile_names.py 2> %t/run.err && cat %t/run.err >&2
# CHECK: hostile\x0aleak:* kind:device\x1b[8m\xc2\x9b
# CHECK: evil\x1b]0;pwned\x07\x1b[2J.py
# CHECK-RE: (?m)^leak:hostile\*leak:\*kind:device\*\[8m\* kind:device$
# CHECK: r\x1b]0;title\x07.json
# RUN: for how in plain by-function by-file gen; do \
# RUN:   case $how in plain) set --;; by-function) set -- --by function;; by-file) set -- --by file;; gen) set -- --gen-suppressions;; esac; \
# RUN:   %report %t/r*.json "$@" > %t/$how.out 2> %t/$how.err || exit 1; done; \
# RUN: %expr %t/r*.json \
# RUN:   'not any(ord(c) < 32 and c != "\n" or 127 <= ord(c) <= 159 for c in text("%t/run.err"))' \
# RUN:   '"\nleak:* kind:device" not in text("%t/run.err")' \
# RUN:   'any(g["kind"] == "device" and stack_has(g, "hostile\nleak:* kind:device") for g in r["leaks"])' \
# RUN:   'all("hostile" in text("%t/" + how + ".out") for how in ("plain", "by-function", "gen"))' \
# RUN:   '"evil\\x1b]0;pwned" in text("%t/by-file.out")' \
# RUN:   'not any(ord(c) < 32 and c != "\n" or 127 <= ord(c) <= 159 for how in ("plain", "by-function", "by-file", "gen") for name in (".out", ".err") for c in text("%t/" + how + name))' \
# RUN:   'not any("\nleak:* kind:" in text("%t/" + how + ".out") for how in ("plain", "by-function", "by-file", "gen"))'
# CHECK-COUNT(7): holds:
