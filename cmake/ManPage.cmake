# cmake -DCUDALEAK=<bin/cudaleak> -DOUT=<cudaleak.1> -DVERSION=<x.y.z> -P ManPage.cmake
# The man page, generated from the tool's own help so that it cannot drift:
# the command list, each command's --help, and `cudaleak options`.
function(help out)
  execute_process(COMMAND ${CUDALEAK} ${ARGN} OUTPUT_VARIABLE text RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "cudaleak ${ARGN} failed: ${status}")
  endif()
  string(REPLACE "\\" "\\e" text "${text}")           # troff escapes
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")  # a line may not start a request
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

help(main --help)
set(page ".TH CUDALEAK 1 \"\" \"cudaleak ${VERSION}\" \"User Commands\"
.SH NAME
cudaleak \\- find CUDA resources a program never released, and why a GPU ran out of memory
.SH SYNOPSIS
.B cudaleak run
[\\fIoptions\\fR] \\-\\- \\fIPROGRAM\\fR [\\fIARGS\\fR...]
.br
.B cudaleak report
[\\fIoptions\\fR] \\fIREPORT\\fR...
.br
.B cudaleak
\\fBdiff\\fR | \\fBmerge\\fR | \\fBbaseline\\fR | \\fBsymbolize\\fR | \\fBoptions\\fR ...
.SH DESCRIPTION
\\fBcudaleak run\\fR runs a program with the \\fIlibcudaleak.so\\fR preload library, which
records every CUDA resource the program creates with its call stack, and at exit, on a
signal, on a crash and at an out-of-memory writes a JSON report of what was never
released, and why memory ran out. The other commands read those reports.
.nf
${main}.fi
")
foreach(command run report diff merge baseline symbolize)
  help(text ${command} --help)
  string(APPEND page ".SH \"cudaleak ${command}\"\n.nf\n${text}.fi\n")
endforeach()
help(options options)
string(APPEND page ".SH OPTIONS\n.nf\n${options}.fi\n")
string(APPEND page ".SH EXIT STATUS
\\fBcudaleak run\\fR exits with the program's status, or with \\fB\\-\\-error\\-exitcode\\fR when the
leak gate fails, \\fB\\-\\-gate\\-error\\-exitcode\\fR (125) when it cannot be evaluated, 2 for a
command-line error, 126 or 127 when the program cannot be run. \\fBcudaleak diff\\fR exits 1 when a
leak site is new or grown. Any command exits 2 for a file it cannot read.
.SH ENVIRONMENT
.TP
.B CUDALEAK_OPTIONS
key=value:key=value, the options above, for a program run with LD_PRELOAD directly.
.SH FILES
.I share/doc/cudaleak/
(usage.md, options.md, report-format.md, ci.md, oom.md, python.md)
")
file(WRITE ${OUT} "${page}")
