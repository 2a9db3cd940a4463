# Reports sent to /dev/null still fill the launcher's JUnit and SARIF files.
# RUN: %run -o /dev/null --junit %t/leaks.xml --sarif %t/leaks.sarif --leak-kinds all -- %build/tests/e2e/exit_paths _exit
# CHECK: leaving by _exit
# RUN: cat %t/leaks.xml %t/leaks.sarif
# CHECK: failures="1"
# CHECK: <failure
# CHECK: "ruleId"
