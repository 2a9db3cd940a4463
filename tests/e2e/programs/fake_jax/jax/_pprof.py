# Writes a pprof profile (profile.proto) as XLA's PyClient::HeapProfile does:
# sample types (allocations, count) and (space, bytes); per sample the
# locations of its Python traceback (leaf first), values [count, bytes], a
# "kind" label ("buffer" or "executable") and for buffers a "device" label
# (the device's DebugString). An encoder of its own, apart from the decoder
# the library ships (interpose/python/site/cudaleak_pprof.py), so that a test
# reads what an independent writer wrote.


def _varint(n):
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field(number, payload):
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _int(number, value):
    return _varint(number << 3) + _varint(value)


def _packed(number, values):
    return _field(number, b"".join(_varint(v) for v in values))


class Builder:
    def __init__(self):
        self.strings = [""]
        self.index = {"": 0}
        self.functions = {}   # (name, file, first line) -> id
        self.locations = {}   # (function id, line) -> id
        self.samples = []

    def string(self, s):
        if s not in self.index:
            self.index[s] = len(self.strings)
            self.strings.append(s)
        return self.index[s]

    def location(self, filename, name, line):
        key = (name, filename)
        fn = self.functions.setdefault(key, len(self.functions) + 1)
        return self.locations.setdefault((fn, line), len(self.locations) + 1)

    def sample(self, frames, count, nbytes, kind, device=None, packed=True):
        locs = [self.location(f, n, l) for f, n, l in frames]
        self.samples.append((locs, count, nbytes, kind, device, packed))

    def encode(self):
        out = bytearray()
        for t, u in (("allocations", "count"), ("space", "bytes")):
            out += _field(1, _int(1, self.string(t)) + _int(2, self.string(u)))
        for locs, count, nbytes, kind, device, packed in self.samples:
            body = bytearray()
            if packed:
                body += _packed(1, locs) + _packed(2, [count, nbytes])
            else:  # unpacked repeated fields are valid protobuf too
                for l in locs:
                    body += _int(1, l)
                body += _int(2, count) + _int(2, nbytes)
            body += _field(3, _int(1, self.string("kind")) + _int(2, self.string(kind)))
            if device is not None:
                body += _field(3, _int(1, self.string("device")) + _int(2, self.string(device)))
            out += _field(2, bytes(body))
        for (fn, line), loc_id in self.locations.items():
            out += _field(4, _int(1, loc_id) + _field(4, _int(1, fn) + _int(2, line)))
        for (name, filename), fn_id in self.functions.items():
            out += _field(5, _int(1, fn_id) + _int(2, self.string(name)) + _int(3, self.string(name)) +
                          _int(4, self.string(filename)))
        for s in self.strings:
            out += _field(6, s.encode())
        return bytes(out)
