# -o %h.%p.%n.json names each report by its host; each host's folder
# gathered apart (equal pids on every host, the pid alone as a name), passed
# together, reads as one job, as the folder of all.
# REQUIRES: simulated
# ENV: CUDALEAK_SIM_DEVICES=2
# RUN: %run -o %t/hosts/%%h.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 2 -- %build/tests/e2e/rank_worker --leak-on 0,1 && echo "named by host: $(ls %t/hosts | grep -c "^$(hostname)\.") of $(ls %t/hosts | wc -l)"
# CHECK: named by host: 2 of 2
# RUN: %python %root/scripts/make-job.py %t/job --ranks 64 --hosts 8 --grow 4 > /dev/null && for f in %t/job/*; do n=$(basename $f); mkdir -p %t/apart/${n%%%%.*}; cp $f %t/apart/${n%%%%.*}/${n#*.}; done; %report %t/apart/node000 %t/apart/node001 %t/apart/node002 %t/apart/node003 %t/apart/node004 %t/apart/node005 %t/apart/node006 %t/apart/node007 > %t/together.txt; %report %t/job > %t/one.txt; cmp %t/together.txt %t/one.txt && echo same as one folder; cat %t/together.txt
# CHECK: same as one folder
# CHECK: job: ranks 0-63 of 64 (torchrun) on 8 hosts (node[000-007])
