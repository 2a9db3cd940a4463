# 2^17 stacks made and freed at once grow memory by under 20 MB (before the
# stack depot forgot stacks, the growth was 33 MB: 256 B a stack); the leaks
# made before the churn still name their own stacks collections later, the
# event's held by its record alone.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/stack_churn 17 > %t/out.txt
# RUN: %expr %t/r.json \
# RUN:   '0 < int(text("%t/out.txt").split("rss_growth_kb=")[1].split()[0]) < 20 * 1024' \
# RUN:   'summary["leaked_count"] == 3' \
# RUN:   '[g["bytes"] for g in leaks("device") if stack_has(g, "leak_before_churn")] == [1 << 20]' \
# RUN:   '[g["bytes"] for g in leaks("device") if stack_has(g, "leak_after_churn")] == [2 << 20]' \
# RUN:   '[stack_has(g, "main") for g in leaks("event") if stack_has(g, "leak_before_churn")] == [True]'
# CHECK-COUNT(5): holds:
