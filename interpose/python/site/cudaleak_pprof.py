"""Reads the pprof profile that jax.profiler.device_memory_profile() returns
(gzip-compressed or not), with no dependency: a protocol-buffer decoder of
just the fields a heap profile uses, bounded in bytes, samples and time, so
that a huge or damaged profile costs a bounded moment and never the program.

    profile.proto (github.com/google/pprof), the fields read:
    Profile  1 sample_type(ValueType) 2 sample(Sample) 4 location(Location)
             5 function(Function) 6 string_table(string)
    ValueType 1 type 2 unit (string ids)
    Sample   1 location_id (packed or not) 2 value (packed or not) 3 label(Label)
    Label    1 key 2 str (string ids) 3 num
    Location 1 id 4 line(Line)          Line 1 function_id 2 line
    Function 1 id 2 name 4 filename (string ids)
"""
import time
import zlib

MAX_INPUT = 256 << 20     # bytes of the profile, decompressed
MAX_SAMPLES = 200000
MAX_FRAMES = 64           # frames kept per sample, innermost first
SECONDS = 5.0             # decoding gives up past this


class ProfileError(Exception):
    pass


def _varint(buf, pos):
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise ProfileError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ProfileError("varint too long")


def _fields(buf):
    """(field number, wire type, value) of one message: an int for varints
    and fixed fields, a memoryview for length-delimited ones."""
    pos, end = 0, len(buf)
    while pos < end:
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            length, pos = _varint(buf, pos)
            if pos + length > end:
                raise ProfileError("truncated field %d" % number)
            value = buf[pos:pos + length]
            pos += length
        elif wire == 1:
            value, pos = int.from_bytes(buf[pos:pos + 8], "little"), pos + 8
        elif wire == 5:
            value, pos = int.from_bytes(buf[pos:pos + 4], "little"), pos + 4
        else:
            raise ProfileError("wire type %d" % wire)
        if pos > end:
            raise ProfileError("truncated field %d" % number)
        yield number, wire, value


def _ints(wire, value, out):
    """A repeated integer field, packed (one length-delimited run) or not."""
    if wire == 2:
        pos = 0
        while pos < len(value):
            v, pos = _varint(value, pos)
            out.append(v)
    else:
        out.append(value)


def _signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def decompress(blob):
    """The profile's bytes: gunzipped when it is gzip (what jax returns),
    as is otherwise. Also says which it was."""
    blob = bytes(blob)
    if blob[:2] != b"\x1f\x8b":
        if len(blob) > MAX_INPUT:
            raise ProfileError("profile larger than %d bytes" % MAX_INPUT)
        return blob, False
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    out = d.decompress(blob, MAX_INPUT)
    if d.unconsumed_tail:
        raise ProfileError("profile larger than %d bytes" % MAX_INPUT)
    return out, True


def decode(blob):
    """{"samples": [{"values": [...], "labels": {key: str or int},
    "frames": [(file, function, line), ...] innermost first}], "sample_types":
    [(type, unit)], "gzip": bool, "truncated": bool}."""
    data, gzipped = decompress(blob)
    deadline = time.monotonic() + SECONDS
    buf = memoryview(data)
    strings, raw_samples, locations, functions, types = [], [], {}, {}, []
    truncated = False
    for number, wire, value in _fields(buf):
        if number == 6 and wire == 2:
            strings.append(bytes(value).decode("utf-8", "replace"))
        elif number == 2 and wire == 2:
            if len(raw_samples) >= MAX_SAMPLES:
                truncated = True
                continue
            raw_samples.append(value)
            if len(raw_samples) % 4096 == 0 and time.monotonic() > deadline:
                raise ProfileError("decoding took longer than %.0f s" % SECONDS)
        elif number == 4 and wire == 2:
            loc_id, lines = 0, []
            for n, w, v in _fields(value):
                if n == 1 and w == 0:
                    loc_id = v
                elif n == 4 and w == 2:
                    fn = line = 0
                    for n2, w2, v2 in _fields(v):
                        if n2 == 1 and w2 == 0:
                            fn = v2
                        elif n2 == 2 and w2 == 0:
                            line = _signed(v2)
                    lines.append((fn, line))
            locations[loc_id] = lines
        elif number == 5 and wire == 2:
            fn_id, name, filename = 0, 0, 0
            for n, w, v in _fields(value):
                if w != 0:
                    continue
                if n == 1:
                    fn_id = v
                elif n == 2:
                    name = v
                elif n == 4:
                    filename = v
            functions[fn_id] = (name, filename)
        elif number == 1 and wire == 2:
            t = {n: v for n, w, v in _fields(value) if w == 0}
            types.append((t.get(1, 0), t.get(2, 0)))

    def s(i):
        return strings[i] if 0 <= i < len(strings) else ""

    samples = []
    for raw in raw_samples:
        loc_ids, values, labels = [], [], {}
        for n, w, v in _fields(raw):
            if n == 1:
                _ints(w, v, loc_ids)
            elif n == 2:
                _ints(w, v, values)
            elif n == 3 and w == 2:
                key, text, num = 0, None, None
                for n2, w2, v2 in _fields(v):
                    if n2 == 1 and w2 == 0:
                        key = v2
                    elif n2 == 2 and w2 == 0:
                        text = s(v2)
                    elif n2 == 3 and w2 == 0:
                        num = _signed(v2)
                labels[s(key)] = text if text is not None else num
        frames = []
        for loc in loc_ids:
            # A location's lines are innermost first (inlined calls); a sample's
            # locations too: the leaf first.
            for fn, line in locations.get(loc, ()):
                name, filename = functions.get(fn, (0, 0))
                frames.append((s(filename), s(name), line))
            if len(frames) >= MAX_FRAMES:
                break
        samples.append({"values": [_signed(v) for v in values], "labels": labels, "frames": frames[:MAX_FRAMES]})
        if len(samples) % 4096 == 0 and time.monotonic() > deadline:
            raise ProfileError("decoding took longer than %.0f s" % SECONDS)
    return {"samples": samples, "sample_types": [(s(t), s(u)) for t, u in types], "gzip": gzipped,
            "truncated": truncated}
