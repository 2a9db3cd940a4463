# The contract of the table of output formats (report/cli/output_formats.cpp),
# written out here so that a row lost or moved to another command fails: each
# command takes its output formats (report: text, json, html, junit, sarif,
# and the annotations github and gitlab; diff: text, json, html, status 1 as
# the sites differ), and refuses the others in one line naming its own.
# The reports are GPU fixtures: oom_leak.json's leaks are located in the
# program, so annotations too have lines.
# RUN: for args in '--format text' '--format json' '--format html' '--format junit' '--format sarif' '--annotations github' '--annotations gitlab'; do %report %root/tests/fixtures/h100/oom_leak.json $args > %t/out.txt 2> /dev/null; echo "report $args: status $? bytes $(wc -c < %t/out.txt)"; done | sed 's/bytes [1-9][0-9]*$/some output/'
# CHECK-COUNT(7): : status 0 some output
# RUN: for f in text json html; do %cudaleak diff %root/tests/fixtures/h100/oom_leak.json %root/tests/fixtures/h100/cublas_no_destroy.json --format $f > %t/out.txt 2> /dev/null; echo "diff $f: status $? bytes $(wc -c < %t/out.txt)"; done | sed 's/bytes [1-9][0-9]*$/some output/'
# CHECK-COUNT(3): : status 1 some output
# RUN(exit=2): %report %root/tests/fixtures/h100/oom_leak.json --format xml
# CHECK-RE: \A[^\n]*cudaleak report: --format: 'xml' is not a format; cudaleak report --format takes text, json, html, junit or sarif; see [^\n]*\n\Z
# RUN(exit=2): %report %root/tests/fixtures/h100/oom_leak.json --format github
# CHECK-RE: \A[^\n]*github \(GitHub workflow commands\) is for cudaleak report --annotations github; cudaleak report --format takes text, json, html, junit or sarif; see [^\n]*\n\Z
# RUN(exit=2): %report %root/tests/fixtures/h100/oom_leak.json --annotations sarif
# CHECK-RE: \A[^\n]*sarif \(SARIF 2\.1\.0\) is for cudaleak report --format sarif; cudaleak report --annotations takes github or gitlab; see [^\n]*\n\Z
# RUN(exit=2): %cudaleak diff %root/tests/fixtures/h100/oom_leak.json %root/tests/fixtures/h100/cublas_no_destroy.json --format junit
# CHECK-RE: \A[^\n]*cudaleak diff: --format: junit \(JUnit XML\) is for cudaleak report --format junit; cudaleak diff --format takes text, json or html; see [^\n]*\n\Z
# RUN(exit=2): %cudaleak diff %root/tests/fixtures/h100/oom_leak.json %root/tests/fixtures/h100/cublas_no_destroy.json --format gitlab
# CHECK-RE: \A[^\n]*gitlab \(a GitLab code-quality report\) is for cudaleak report --annotations gitlab; cudaleak diff --format takes text, json or html; see [^\n]*\n\Z
# RUN(exit=2): %cudaleak run --annotations junit -- true
# CHECK-RE: \A[^\n]*cudaleak run: --annotations: junit \(JUnit XML\) is for cudaleak run --junit FILE; cudaleak run --annotations takes github or gitlab; see [^\n]*\n\Z
# RUN(exit=2): %cudaleak run --annotations html -- true
# CHECK-RE: \A[^\n]*html \(an HTML page\) is for cudaleak report --format html; cudaleak run --annotations takes github or gitlab; see [^\n]*\n\Z
