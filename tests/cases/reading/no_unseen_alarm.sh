# No false alarm of unseen memory on a real GPU: of the reports the cases
# before this one left in the run's output folder (all but
# gate/unseen_real.sh's, which allocates past cudaleak on purpose), none says
# memory was allocated by calls cudaleak did not see; any that does is named.
# REQUIRES: gpu
# RUN: cd %t/../.. && find . -name '*.json' ! -path './gate/unseen_real/*' ! -path './reading/no_unseen_alarm/*' > %t/reports.txt; echo "reports: $(wc -l < %t/reports.txt)"; echo "saying memory was unseen: $(xargs -r grep -l 'calls cudaleak did not see' < %t/reports.txt | wc -l)"; xargs -r grep -l 'calls cudaleak did not see' < %t/reports.txt; true
# CHECK-RE: reports: [0-9]+
# CHECK: saying memory was unseen: 0
