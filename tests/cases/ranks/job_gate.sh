# cudaleak run gates the whole job, per rank, and names ranks in JUnit
# (a suite per rank, with its host and rank) and SARIF (rank, world size).
# A suppression applies on every rank: the job passes. A baseline of the
# job's sites is judged per rank: the same leak on another rank is known
# there too; a new site fails every rank that has it; the job's count of
# failing groups is of the groups it shows (each device's buffer, folded
# over the 4 ranks, counts once).
# REQUIRES: simulated
# ENV: CUDALEAK_SIM_DEVICES=4
# RUN(exit=9): %run --error-exitcode 9 --junit %t/gate.xml --sarif %t/gate.sarif --fail-on device -o %t/gate/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 4 -- %build/tests/e2e/rank_worker --leak-on 1
# CHECK: leak gate over the job's 4 ranks: rank 1 failed, ranks 0,2,3 passed; exiting with status 9
# RUN: cat %t/gate.xml
# CHECK: <testsuite name="cudaleak: rank_worker (rank 1)" tests="1" failures="1"
# CHECK: <property name="rank" value="1"/>
# RUN: grep -c '<testsuite name="cudaleak: rank_worker (rank 0)"' %t/gate.xml; grep '<testsuite name="cudaleak: rank_worker (rank 1)"' %t/gate.xml | grep -c "hostname=\"$(hostname)\""
# CHECK-RE: \A1\n1\n
# RUN: %expr %t/gate.sarif 'len(r["runs"][0]["results"]) == 1 and r["runs"][0]["results"][0]["properties"]["rank"] == 1 and r["runs"][0]["results"][0]["properties"]["worldSize"] == 4 and "in rank_worker (rank 1, pid " in r["runs"][0]["results"][0]["message"]["text"]'
# CHECK: holds:
# RUN: printf 'leak:leak_gradients\nleak:rank0_only_event\n' > %t/ranks.supp && %run --error-exitcode 9 --suppressions %t/ranks.supp -o %t/quiet/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 4 -- %build/tests/e2e/rank_worker --leak-on 1,2
# CHECK: leak gate over the job's 4 ranks: ranks 0-3 passed
# RUN: %run -o %t/base/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 4 -- %build/tests/e2e/rank_worker --leak-on 1 > /dev/null 2>&1; %cudaleak baseline %t/base -o %t/ranks.baseline
# RUN: %run --error-exitcode 9 --baseline %t/ranks.baseline -o %t/known/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 4 -- %build/tests/e2e/rank_worker --leak-on 1,3
# CHECK-NONE: failed
# RUN(exit=9): %run --error-exitcode 9 --baseline %t/ranks.baseline -o %t/new/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 4 -- %build/tests/e2e/rank_worker --leak-on 1 --all-devices
# CHECK: leak gate over the job's 4 ranks: ranks 0-3 failed
# RUN: mkdir %t/merged && %cudaleak merge %t/new -o %t/merged/m.json && %expr %t/merged/m.json 'len([g for g in r["leaks"] if g.get("fails_gate")]) == 4 and r["gate"]["failing_groups"] == 4'
# CHECK: holds:
