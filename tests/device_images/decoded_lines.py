"""An oracle for the device line decoder (report/symbols/device_lines.cpp):
binutils' readelf decodes the `.debug_line` of a cubin. readelf and objcopy do
not read CUDA ELF, so the section's bytes are put into an empty host object
first. The cubin must hold one kernel (its relocation's addend 0), so every
row's address is an offset in that kernel. Writes "address line" per row;
an end of sequence is written as line 0.

    decoded_lines.py CC CUBIN OUT"""
import os
import re
import struct
import subprocess
import sys
import tempfile

cc, cubin, out = sys.argv[1:4]
data = open(cubin, "rb").read()
shoff, = struct.unpack_from("<Q", data, 0x28)
shnum, shstrndx = struct.unpack_from("<HH", data, 0x3C)
headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * 64) for i in range(shnum)]
names = headers[shstrndx]
names = data[names[4]:names[4] + names[5]]
section = None
for h in headers:
    if names[h[0]:names.index(b"\0", h[0])] == b".debug_line":
        section = data[h[4]:h[4] + h[5]]
if section is None:
    sys.exit("no .debug_line in " + cubin)
with tempfile.TemporaryDirectory() as tmp:
    raw, empty, host = (os.path.join(tmp, n) for n in ("lines.bin", "empty.o", "host.o"))
    open(raw, "wb").write(section)
    subprocess.run([cc, "-c", "-x", "c", os.devnull, "-o", empty], check=True)
    subprocess.run(["objcopy", "--add-section", ".debug_line=" + raw, empty, host], check=True)
    text = subprocess.run(["readelf", "--debug-dump=decodedline", host], check=True, capture_output=True,
                          text=True).stdout
rows = []
for line in text.splitlines():
    m = re.match(r"^\S+\s+(\d+|-)\s+(0x[0-9a-f]+|\d+)\b", line)
    if m:
        rows.append(f"{int(m.group(2), 0)} {0 if m.group(1) == '-' else int(m.group(1))}")
if not rows:
    sys.exit("readelf decoded no rows")
open(out, "w").write("\n".join(rows) + "\n")
