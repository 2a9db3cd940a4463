# diff --format html shows the sites grown, new and gone with their stacks
# (a gone site's from the earlier run), and shrunk; its status as the
# text's: 1 when a site grew.
# RUN: %run -o %t/few/r.json -- %build/samples/sample_loop_leak_shared 5 && %run -o %t/more/r.json -- %build/samples/sample_loop_leak_shared 9 && %run -o %t/other/r.json -- %build/samples/sample_stream_event_leak_shared
# RUN(exit=1): %cudaleak diff --format html -o %t/diff.html %t/few %t/more
# RUN: cat %t/diff.html
# CHECK: <h2>Grown (1)</h2>
# CHECK: <td class="n">80.0 KiB</td><td class="n">144.0 KiB</td><td class="n">+64.0 KiB</td><td class="n">5 &rarr; 9</td>
# CHECK: <span class="fn">step</span>
# CHECK: loop_leak.cu:8</li>
# RUN: %cudaleak diff --format html -o %t/changed.html %t/other %t/more; cat %t/changed.html
# CHECK-COUNT(1): <h2>New (1)</h2>
# CHECK-COUNT(1): <h2>Gone (2)</h2>
# CHECK-COUNT(1): <h2>Shrunk (0)</h2>
# CHECK: cudaStreamCreateWithFlags
# RUN: %cudaleak diff --format html %t/more %t/few
# CHECK: <h2>Shrunk (1)</h2>
# CHECK: &minus;64.0 KiB
