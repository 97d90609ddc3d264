#!/usr/bin/env python3
"""Independent reader of the LNote on-disk format, version 1.

Written from Spec/README.md, Spec/format.md and Spec/rationale.md alone (standard
library only). Requirement IDs from the spec are cited in comments. Where the spec still
leaves a choice open, the choice made here is marked "ROUND 2 (R2-n)" and the question is
written down in SPEC-QUESTIONS.md under "Round 2".

Usage:
    python3 lnote_ref.py VECTORS_DIR        run the conformance vectors (manifest.json)
    python3 lnote_ref.py dump FILE          print the header and frames of a journal/snapshot
    python3 lnote_ref.py page DIR [MODE]    recover a page from a folder of page files
    python3 lnote_ref.py fsck PATH... [--json] [--mode MODE]
                                            check packages (or a library folder) without
                                            repair; exit status as K-002
"""

import hashlib
import json
import math
import os
import re
import stat
import struct
import sys
import uuid as _uuid

def name_text(name):
    """D-035: a file name as text. Python reads names with surrogateescape; the spec keeps a
    name that is UTF-8 and holds none of U+10FF80 .. U+10FFFF as it is, and shows every byte
    b >= 0x80 of any other name as chr(0x10FF00 + b), so the text gives back the bytes."""
    if not isinstance(name, str):
        return name
    try:
        raw = os.fsencode(name)
    except UnicodeEncodeError:
        return name
    try:
        text = raw.decode("utf-8")
        if not any(0x10FF80 <= ord(c) <= 0x10FFFF for c in text):
            return text
    except UnicodeDecodeError:
        pass
    return "".join(chr(b) if b < 0x80 else chr(0x10FF00 + b) for b in raw)


# --------------------------------------------------------------------------------------
# Limits (section 9)
# --------------------------------------------------------------------------------------

PAYLOAD_BYTES_MAX = 16_777_216          # F-002
STROKE_POINTS_MAX = 65_536              # E-010
INK_TYPE_BYTES_MAX = 64                 # E-010
IDS_PER_CHANGE_MAX = 1_000_000          # E-027
RESYNC_SEQUENCE_WINDOW = 1 << 24        # J-014

FRAME_HEADER_SIZE = 9                   # F-001
FILE_HEADER_SIZE = 64                   # J-002, S-001
JOURNAL_MAGIC = b"LNOTEJNL"
SNAPSHOT_MAGIC = b"LNOTESNP"

# Frame types (3.1)
T_ELEMENT_APPEND = 0x01
T_ELEMENT_REPLACE = 0x02
T_ELEMENTS_TRANSFORM = 0x03
T_ELEMENTS_DELETE = 0x04
T_ELEMENTS_REORDER = 0x05
T_PAGE_METADATA = 0x06
T_PADDING = 0x80
T_CLOCK = 0x81                  # history.md H-010: a save's time; skipped like padding
KNOWN_CRITICAL = {1: "elementAppend", 2: "elementReplace", 3: "elementsTransform",
                  4: "elementsDelete", 5: "elementsReorder", 6: "pageMetadata"}

MODES = ("salvage", "prefix", "strict")

# J-027 / the table of 4.4: information never stops prefix replay nor refuses strict
# mode; everything else is damage. Torn tails (J-012) and unknown ancillary types (F-011)
# are always information; missingElement / duplicateElement are information when a
# journal change skips an id (P-006) but duplicateElement inside a snapshot is damage
# (S-007); retainedJournal and leftoverTemp are information (P-003, P-015). A Finding
# therefore carries its class (`info`) rather than deriving it from the kind alone.
U64_MAX = (1 << 64) - 1


class DecodeError(Exception):
    """A structure is invalid (badBody and friends)."""


# --------------------------------------------------------------------------------------
# CRC-32C (section 2)
# --------------------------------------------------------------------------------------

def _make_crc_table():
    # C-001: reflected polynomial 0x82F63B78.
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _make_crc_table()


def crc32c_extend(crc, data):
    """crc32c(a ++ data) given crc = crc32c(a) (section 2)."""
    c = crc ^ 0xFFFFFFFF
    t = _CRC_TABLE
    for b in data:
        c = t[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def crc32c(data):
    """C-001: init 0xFFFFFFFF, final XOR 0xFFFFFFFF; C-003: no masking."""
    return crc32c_extend(0, data)


# --------------------------------------------------------------------------------------
# Primitive decoding (section 1)
# --------------------------------------------------------------------------------------

class Reader:
    """Bounded little-endian reader over buf[pos:end] (G-001)."""

    def __init__(self, buf, pos=0, end=None):
        self.buf = buf
        self.pos = pos
        self.end = len(buf) if end is None else end

    def remaining(self):
        return self.end - self.pos

    def take(self, n):
        if n < 0 or self.pos + n > self.end:
            raise DecodeError("truncated: need %d bytes, %d remain" % (n, self.remaining()))
        b = self.buf[self.pos:self.pos + n]
        self.pos += n
        return bytes(b)

    def u8(self):
        return self.take(1)[0]

    def u16(self):
        return struct.unpack("<H", self.take(2))[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def f32(self):
        return struct.unpack("<f", self.take(4))[0]

    def uuid(self):
        # G-002: 16 bytes in canonical text order.
        return self.take(16)

    def varint(self):
        """G-003: unsigned LEB128, valid iff at most 10 bytes, the last byte not 0x00
        unless it is the only one (varintNotMinimal), and a 10th byte exactly 0x01
        (0x00 there is varintNotMinimal, anything above varintOverflow)."""
        result = 0
        for i in range(10):
            if self.pos >= self.end:
                raise DecodeError("truncated varint")
            b = self.buf[self.pos]
            self.pos += 1
            if i == 9 and b > 0x01:
                raise DecodeError("varintOverflow")
            result |= (b & 0x7F) << (7 * i)
            if not b & 0x80:
                if b == 0 and i > 0:
                    raise DecodeError("varintNotMinimal")
                return result
        raise DecodeError("varint longer than 10 bytes")  # unreachable

    def svarint(self):
        # G-005: zigzag.
        u = self.varint()
        return (u >> 1) ^ -(u & 1)

    def string(self):
        # G-006: varint byte count + UTF-8.
        n = self.varint()
        if n > self.remaining():
            raise DecodeError("string runs past the end")
        raw = self.take(n)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise DecodeError("invalid UTF-8")


def uuid_text(b):
    """G-002: canonical lowercase text of 16 uuid bytes."""
    return str(_uuid.UUID(bytes=bytes(b)))


def uuid_bytes(text):
    return _uuid.UUID(text).bytes


# --------------------------------------------------------------------------------------
# Findings
# --------------------------------------------------------------------------------------

class Finding:
    """A reported anomaly or information: kind, offset, bytes, tornTail (README)."""

    def __init__(self, kind, offset, nbytes, torn_tail=False, missing=None, note=None,
                 info=False):
        self.kind = kind
        self.offset = offset
        self.bytes = nbytes
        self.torn_tail = torn_tail
        self.missing = missing      # (first, end) of missing sequence numbers, J-015
        self.note = note
        self.info = info or torn_tail

    @property
    def informational(self):
        """J-027: information (True) or damage (False)."""
        return self.info

    def to_json(self):
        # J-012 / 4.4: for a torn tail, `kind` is the reason and tornTail is true.
        return {"kind": self.kind, "offset": self.offset, "bytes": self.bytes,
                "tornTail": self.torn_tail}

    def __repr__(self):
        s = "%s@%d+%d%s" % (self.kind, self.offset, self.bytes, " torn" if self.torn_tail else "")
        if self.missing:
            s += " missing %d..<%d" % self.missing
        if self.note:
            s += " (%s)" % self.note
        return s


# --------------------------------------------------------------------------------------
# Elements and points (section 6)
# --------------------------------------------------------------------------------------

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
U16_MAX = 0xFFFF
U32_MAX = 0xFFFFFFFF


def _check(value, lo, hi, name):
    # E-002: a decoded field outside its range (6.1) makes the stroke invalid.
    if value < lo or value > hi:
        raise DecodeError("point %s %d out of range" % (name, value))
    return value


def points_structure_end(r, count, has_angles):
    """E-006's load checks: count in range, E-004's bound, then count * f varint
    terminators with no run of 10 bytes >= 0x80 before the last. Returns the end."""
    if count < 1 or count > STROKE_POINTS_MAX:        # E-010
        raise DecodeError("point count %d outside 1...%d" % (count, STROKE_POINTS_MAX))
    if count * 5 > r.remaining():                      # E-004
        raise DecodeError("point count %d needs more than %d bytes" % (count, r.remaining()))
    need = count * (7 if has_angles else 5)
    run = 0
    for i in range(r.pos, r.end):
        if r.buf[i] < 0x80:
            need -= 1
            run = 0
            if need == 0:
                return i + 1
        else:
            run += 1
            if run >= 10:
                raise DecodeError("varintOverflow in points")
    raise DecodeError("truncated points")


def decode_points(r, count, has_angles=False, cut=None, out=None):
    """E-001..E-004: the point codec. Returns a list of tuples
    (x, y, radius, pressure, time[, azimuth, altitude]).

    Python integers are unbounded, so "64-bit signed arithmetic with overflow checks"
    (E-002) is implemented by range-checking the exact result: any value that would
    overflow 64 bits is also outside the field ranges.
    """
    if count < 1 or count > STROKE_POINTS_MAX:        # E-010
        raise DecodeError("point count %d outside 1...%d" % (count, STROKE_POINTS_MAX))
    if count * 5 > r.remaining():                      # E-004
        raise DecodeError("point count %d needs more than %d bytes" % (count, r.remaining()))
    # (name, lo, hi, second_order)
    fields = [("x", INT32_MIN, INT32_MAX, True), ("y", INT32_MIN, INT32_MAX, True),
              ("radius", 0, U16_MAX, False), ("pressure", 0, U16_MAX, False),
              ("time", 0, U32_MAX, True)]
    if has_angles:
        fields += [("azimuth", 0, U16_MAX, False), ("altitude", 0, U16_MAX, False)]
    if cut is not None:
        # E-007: keep the points before the first failing one; the reason goes to `cut`.
        end = points_structure_end(r, count, has_angles)
        sub = Reader(r.buf, r.pos, end)
        r.pos = end
        got = []
        try:
            decode_points(sub, count, has_angles, out=got)
        except DecodeError as e:
            cut.append(str(e))
        return got
    points = [] if out is None else out
    for i in range(count):
        p = []
        for f, (name, lo, hi, second) in enumerate(fields):
            if i == 0:
                # x, y: svarint(v0); time, radius, pressure, angles: varint(v0)
                v = r.svarint() if name in ("x", "y") else r.varint()
            elif i == 1 or not second:
                v = points[i - 1][f] + r.svarint()
            else:
                prev, prev2 = points[i - 1][f], points[i - 2][f]
                v = prev + (prev - prev2) + r.svarint()
            p.append(_check(v, lo, hi, name))
        if i == 0 and p[4] != 0:                        # E-003
            raise DecodeError("time of point 0 is %d, must be 0" % p[4])
        if i > 0 and p[4] < points[i - 1][4]:           # E-003
            raise DecodeError("time decreases at point %d" % i)
        points.append(tuple(p))
    return points


def decode_transform(r):
    # 6.3: 6 x f32, all finite (E-010).
    t = tuple(r.f32() for _ in range(6))
    if not all(math.isfinite(v) for v in t):
        raise DecodeError("non-finite transform")
    return t


class Element:
    def __init__(self, kind, eid, **fields):
        self.kind = kind
        self.id = eid            # 16 bytes
        self.fields = fields     # kind-specific; includes 'transform' (tuple or None)

    @property
    def id_text(self):
        return uuid_text(self.id)

    def __repr__(self):
        return "Element(%s %s)" % ({1: "stroke", 2: "image"}[self.kind], self.id_text)


def _fits(value, lo, hi, name):
    # E-012: integer fields must fit the model (valueOutOfRange).
    if value < lo or value > hi:
        raise DecodeError("valueOutOfRange: %s %d" % (name, value))
    return value


def decode_element(r, cut=None):
    """6.3 element; E-010 validity."""
    kind = r.u8()
    eid = r.uuid()
    if kind == 1:
        ink = r.string()
        ink_len = len(ink.encode("utf-8"))
        if ink_len < 1 or ink_len > INK_TYPE_BYTES_MAX:
            raise DecodeError("ink type of %d bytes" % ink_len)
        color = tuple(r.take(4))
        width = _fits(r.varint(), 0, U32_MAX, "ink width")                 # E-012
        flags = r.u8()
        if flags & ~0x03:                                # G-007 / E-010
            raise DecodeError("stroke flag bits 0x%02x must be zero" % (flags & ~0x03))
        transform = decode_transform(r) if flags & 1 else None
        has_angles = bool(flags & 2)
        count = r.varint()
        points = decode_points(r, count, has_angles, cut)
        return Element(1, eid, ink=ink, color=color, width=width, has_angles=has_angles,
                       transform=transform, points=points)
    if kind == 2:
        asset = r.uuid()
        x = _fits(r.svarint(), INT32_MIN, INT32_MAX, "image x")            # E-012
        y = _fits(r.svarint(), INT32_MIN, INT32_MAX, "image y")
        w = _fits(r.varint(), 0, U32_MAX, "image width")
        h = _fits(r.varint(), 0, U32_MAX, "image height")
        flags = r.u8()
        if flags & ~0x03:                                # E-010, E-014
            raise DecodeError("image flag bits 0x%02x must be zero" % (flags & ~0x03))
        transform = decode_transform(r) if flags & 1 else None
        page = _fits(r.varint(), 0, U32_MAX, "image page") if flags & 2 else None   # E-014
        return Element(2, eid, asset=asset, x=x, y=y, width=w, height=h, transform=transform,
                       page=page)
    raise DecodeError("unknown element kind %d" % kind)


def _read_count(r, min_item_bytes):
    """E-027: a count above idsPerChangeMax, or more than the payload can hold, is
    rejected before anything is allocated."""
    n = r.varint()
    if n > IDS_PER_CHANGE_MAX:
        raise DecodeError("count %d exceeds idsPerChangeMax" % n)
    if n * min_item_bytes > r.remaining():
        raise DecodeError("count %d cannot fit in %d bytes" % (n, r.remaining()))
    return n


class Change:
    def __init__(self, ftype, **kw):
        self.type = ftype
        self.__dict__.update(kw)


def decode_change(ftype, r, cut=None):
    """Decode the body (after `sequence`) of a known critical frame type (3.1, 6.4).
    F-012: the payload must be exhausted afterwards."""
    if ftype == T_ELEMENT_APPEND:
        c = Change(ftype, element=decode_element(r, cut))
    elif ftype == T_ELEMENT_REPLACE:
        target = r.uuid()
        n = _read_count(r, 31)       # E-027: the smallest element is 31 bytes
        c = Change(ftype, target=target, elements=[decode_element(r, cut) for _ in range(n)])
    elif ftype == T_ELEMENTS_TRANSFORM:
        n = _read_count(r, 16 + 24)
        c = Change(ftype, items=[(r.uuid(), decode_transform(r)) for _ in range(n)])
    elif ftype == T_ELEMENTS_DELETE:
        n = _read_count(r, 16)
        c = Change(ftype, ids=[r.uuid() for _ in range(n)])
    elif ftype == T_ELEMENTS_REORDER:
        index = _fits(r.varint(), 0, (1 << 63) - 1, "reorder index")   # E-012
        n = _read_count(r, 16)
        c = Change(ftype, index=index, ids=[r.uuid() for _ in range(n)])
    elif ftype == T_PAGE_METADATA:
        w = _fits(r.varint(), 0, U32_MAX, "page width")                 # E-012
        h = _fits(r.varint(), 0, U32_MAX, "page height")
        flags = r.u8()
        if flags != 0:                                   # G-007
            raise DecodeError("pageMetadata flags must be zero")
        c = Change(ftype, width=w, height=h)
    else:
        raise ValueError("not a known critical type: %d" % ftype)
    if r.remaining() != 0:                               # F-012
        raise DecodeError("%d trailing bytes after the body" % r.remaining())
    return c


class Page:
    """The page model of 6.4: an ordered array of elements (z-order, first is bottom)."""

    def __init__(self):
        self.elements = []
        self.width = None
        self.height = None

    def ids(self):
        return [e.id_text for e in self.elements]

    def _index(self, eid):
        for i, e in enumerate(self.elements):
            if e.id == eid:
                return i
        return None

    def apply(self, change):
        """Apply one change (E-020..E-027). Returns the finding kinds of the ids it
        skipped, one per skipped id (missingElement / duplicateElement, P-006)."""
        kinds = []
        t = change.type
        if t == T_ELEMENT_APPEND:                       # E-020
            if self._index(change.element.id) is not None:
                kinds.append("duplicateElement")
            else:
                self.elements.append(change.element)
        elif t == T_ELEMENT_REPLACE:                    # E-021
            i = self._index(change.target)
            if i is None:
                kinds.append("missingElement")
            else:
                # A fragment may keep the target's id; one whose id exists elsewhere on
                # the page, or repeats an earlier fragment's, is skipped.
                present = {e.id for j, e in enumerate(self.elements) if j != i}
                frags = []
                for e in change.elements:
                    if e.id in present:
                        kinds.append("duplicateElement")
                        continue
                    present.add(e.id)
                    frags.append(e)
                self.elements[i:i + 1] = frags
        elif t == T_ELEMENTS_TRANSFORM:                 # E-022: set, not compose
            for eid, tr in change.items:
                i = self._index(eid)
                if i is None:
                    kinds.append("missingElement")
                else:
                    self.elements[i].fields["transform"] = tr
        elif t == T_ELEMENTS_DELETE:                    # E-023
            for eid in change.ids:
                i = self._index(eid)
                if i is None:
                    kinds.append("missingElement")
                else:
                    del self.elements[i]
        elif t == T_ELEMENTS_REORDER:                   # E-024
            moved, seen = [], set()
            for eid in change.ids:
                if eid in seen:     # an id listed more than once counts at its first place
                    continue
                seen.add(eid)
                i = self._index(eid)
                if i is None:
                    kinds.append("missingElement")
                else:
                    moved.append(self.elements.pop(i))
            at = min(change.index, len(self.elements))
            self.elements[at:at] = moved
        elif t == T_PAGE_METADATA:                      # E-025
            self.width, self.height = change.width, change.height
        return kinds


# --------------------------------------------------------------------------------------
# Frames (section 3) and the frame walk (4.2)
# --------------------------------------------------------------------------------------

def frame_crc(salt, length_bytes, ftype, payload):
    """F-003: crc32c(salt_le8 ++ length_le4 ++ type_u8 ++ payload)."""
    c = crc32c(struct.pack("<Q", salt) + bytes(length_bytes) + bytes([ftype]))
    return crc32c_extend(c, payload)


class ScannedFrame:
    def __init__(self, offset, length, ftype, seq):
        self.offset = offset
        self.length = length
        self.type = ftype
        self.sequence = seq

    @property
    def end(self):
        return self.offset + FRAME_HEADER_SIZE + self.length

    @property
    def size(self):
        return FRAME_HEADER_SIZE + self.length

    def __repr__(self):
        return "Frame(seq %d type 0x%02x @%d+%d)" % (self.sequence, self.type, self.offset,
                                                    self.size)


def probe_frame(buf, o, salt):
    """`probe` of 4.2: F-005 in order. Returns (reason, frame): reason is None for a
    valid frame, else 'shortHeader', 'badType', 'badLength' or 'badCRC' (the J-015
    reason); frame is None unless the frame is valid."""
    n = len(buf)
    if n - o < FRAME_HEADER_SIZE:                                    # (1)
        return "shortHeader", None
    length, stored = struct.unpack_from("<II", buf, o)
    ftype = buf[o + 8]
    if ftype == 0:                                                   # (2) F-004
        return "badType", None
    if length < 8 or length > PAYLOAD_BYTES_MAX \
            or o + FRAME_HEADER_SIZE + length > n:                   # (3), (4) F-001/F-002
        return "badLength", None
    payload = buf[o + FRAME_HEADER_SIZE:o + FRAME_HEADER_SIZE + length]
    if frame_crc(salt, buf[o:o + 4], ftype, payload) != stored:      # (5) F-003
        return "badCRC", None
    seq = struct.unpack_from("<Q", buf, o + FRAME_HEADER_SIZE)[0]
    return None, ScannedFrame(o, length, ftype, seq)


def window_end(expected):
    """J-017: expected + 2^24, saturating at 2^64 - 1."""
    return min(expected + RESYNC_SEQUENCE_WINDOW, U64_MAX)


def classify_torn_tail(buf, o):
    """`tailReason` of 4.2 (J-012): first match, in this order."""
    n = len(buf)
    if n - o < FRAME_HEADER_SIZE:
        return "shortHeader"
    if not any(buf[o:]):
        return "zeroFill"
    length = struct.unpack_from("<I", buf, o)[0]
    if buf[o + 8] != 0 and 8 <= length <= PAYLOAD_BYTES_MAX \
            and o + FRAME_HEADER_SIZE + length > n:
        return "lengthPastEnd"
    return "badTailFrame"


def resync(buf, pos, salt, expected):
    """J-014: the first valid frame at p = pos + 1, pos + 2, ... whose sequence is in
    the window, or None. Cheap checks first, the CRC only for survivors."""
    n = len(buf)
    hi = window_end(expected)
    for p in range(pos + 1, n - FRAME_HEADER_SIZE - 8 + 1):
        if buf[p + 8] == 0:
            continue
        length = struct.unpack_from("<I", buf, p)[0]
        if length < 8 or length > PAYLOAD_BYTES_MAX or p + FRAME_HEADER_SIZE + length > n:
            continue
        seq = struct.unpack_from("<Q", buf, p + FRAME_HEADER_SIZE)[0]
        if not expected <= seq < hi:
            continue
        reason, f = probe_frame(buf, p, salt)
        if reason is None:
            return f
    return None


class WalkResult:
    def __init__(self, start, expected):
        self.frames = []          # accepted frames of known critical types, in order
        self.accepted = []        # every accepted frame, padding and ancillary too (P-018)
        self.findings = []        # in file order
        self.valid_end = start    # J-013
        self.next_sequence = expected
        self.stopped = False      # prefix stop or unknown critical type (`stop`)
        self.refused = False      # strict mode (J-022)


def walk_frames(buf, start, salt, first_sequence, mode):
    """`read` of 4.2: the frame walk with the mode's stops (J-010..J-022).

    Bodies are not decoded here (J-026 is applied by the caller)."""
    n = len(buf)
    w = WalkResult(start, first_sequence)
    pos = start
    expected = first_sequence

    def report(f):
        w.findings.append(f)
        if mode == "strict" and not f.informational:                 # J-022
            w.refused = True

    def take(f):
        """J-018. Returns False when the walk stops (unknown critical type)."""
        nonlocal expected, pos
        if 1 <= f.type <= 127 and f.type not in KNOWN_CRITICAL:     # F-010
            # validEnd keeps its value (the `stop` of 4.2). ROUND 2 (R2-8): after a
            # J-015 stretch this is the stretch's start, not the frame's offset (J-018).
            report(Finding("unknownCriticalType", f.offset, n - f.offset,
                           note="type 0x%02x" % f.type))
            expected = f.sequence
            w.stopped = True
            return False
        w.accepted.append(f)                                         # P-018
        if f.type <= 127:
            w.frames.append(f)
        elif f.type not in (T_PADDING, T_CLOCK):                     # F-011, H-010
            report(Finding("unknownAncillaryType", f.offset, 0, info=True,
                           note="type 0x%02x" % f.type))
        expected = f.sequence + 1
        pos = w.valid_end = f.end
        return True

    while pos < n:
        reason, f = probe_frame(buf, pos, salt)
        if f is not None and f.sequence < window_end(expected):
            if f.sequence == expected:                               # J-010
                if not take(f):
                    break
                continue
            if f.sequence > expected:                                # J-016 gap
                if mode == "prefix":
                    report(Finding("sequenceGap", pos, n - pos, missing=(expected, f.sequence)))
                    w.stopped = True
                    break
                report(Finding("sequenceGap", pos, 0, missing=(expected, f.sequence)))
                if not take(f):
                    break
                continue
            if mode == "prefix":                                     # J-016 regression
                report(Finding("sequenceRegression", pos, n - pos))
                w.stopped = True
                break
            report(Finding("sequenceRegression", pos, f.size))
            pos = f.end
            continue
        kind = "sequenceGap" if f is not None else reason            # J-015 reason
        g = resync(buf, pos, salt, expected)                         # J-014
        if g is None:                                                # J-012
            report(Finding(classify_torn_tail(buf, pos), pos, n - pos, torn_tail=True))
            break
        missing = (expected, g.sequence) if g.sequence > expected else None
        if mode == "prefix":                                         # J-021
            report(Finding(kind, pos, n - pos, missing=missing))
            w.stopped = True
            break
        report(Finding(kind, pos, g.offset - pos, missing=missing))  # J-015, J-020
        if not take(g):
            break
    w.next_sequence = expected
    return w


def decode_frame(buf, fr, cut=None):
    """J-026: decode a frame's body (after `sequence`). Raises DecodeError (badBody).
    With `cut` (a list), a stroke whose points fail after E-006's load checks keeps the
    points before the failing one and the reason is appended to `cut` (E-007)."""
    return decode_change(fr.type, Reader(buf, fr.offset + FRAME_HEADER_SIZE + 8, fr.end), cut)


def decode_salvage(buf, fr):
    """E-007 in salvage mode: (change, reason of bad points or None). Raises DecodeError
    (badBody) only when the body fails otherwise."""
    try:
        return decode_frame(buf, fr), None
    except DecodeError as e:
        cut = []
        try:
            change = decode_frame(buf, fr, cut)
        except DecodeError:
            raise e
        if not cut:
            raise e
        return change, cut[0]


# --------------------------------------------------------------------------------------
# File headers (4.1, 7)
# --------------------------------------------------------------------------------------

class FileHeader:
    """Common part of J-002 / S-001. `reason` is the first failure in the order of J-006
    (detail only: the finding is always badHeader)."""

    def __init__(self, data, magic):
        self.present = len(data) >= FILE_HEADER_SIZE
        self.reason = None
        self.other_version = False
        if not self.present:
            self.reason = "shortHeader"
            return
        (m, self.version, self.header_size, self.flags) = struct.unpack_from("<8sHHI", data, 0)
        self.page_id = bytes(data[16:32])
        (self.f32_, self.salt, self.f48_) = struct.unpack_from("<QQQ", data, 32)
        (self.f56_, self.header_crc) = struct.unpack_from("<II", data, 56)
        crc_ok = crc32c(data[0:60]) == self.header_crc
        # J-025: magic and header CRC correct, version unknown: intact, another format.
        self.other_version = m == magic and crc_ok and self.version != 1
        checks = [("badMagic", m == magic), ("badVersion", self.version == 1),
                  ("badHeaderSize", self.header_size == 64), ("badHeaderCRC", crc_ok)]
        checks += self._more_checks()
        for name, ok in checks:
            if not ok:
                self.reason = name
                break

    def _more_checks(self):
        return []

    @property
    def valid(self):
        return self.reason is None


class JournalHeader(FileHeader):
    """J-002, J-006."""

    def __init__(self, data):
        super().__init__(data, JOURNAL_MAGIC)

    def _more_checks(self):
        self.base_generation = self.f32_
        self.first_sequence = self.f48_
        return [("nonZeroReserved", self.flags == 0 and self.f56_ == 0),
                ("badFirstSequence", self.first_sequence >= 1)]

    @property
    def salvageable(self):
        """J-023: frames behind an invalid header are walked (salvage mode only) if the
        file holds 64 bytes, firstSequence >= 1 and the header is not of another
        version (J-025)."""
        return self.present and self.first_sequence >= 1 and not self.other_version


class SnapshotHeader(FileHeader):
    """S-001, S-005."""

    def __init__(self, data):
        super().__init__(data, SNAPSHOT_MAGIC)

    def _more_checks(self):
        self.generation = self.f32_
        self.next_sequence = self.f48_
        self.element_count = self.f56_
        return [("nonZeroReserved", self.flags == 0),
                ("badGeneration", self.generation >= 1),
                ("badNextSequence", self.next_sequence >= 1)]

    @property
    def salvageable(self):
        """S-006: as J-023, with generation and nextSequence both at least 1."""
        return (self.present and self.generation >= 1 and self.next_sequence >= 1
                and not self.other_version)


def _torn_creation(data, h):
    """J-028: a journal whose header is invalid (and not an intact header of another
    version, J-025) and which has no non-zero byte after its first 64 bytes (a file of at
    most 64 bytes included) is a torn creation: information, no frame."""
    return (not h.valid and not h.other_version
            and data.count(0, FILE_HEADER_SIZE) == max(0, len(data) - FILE_HEADER_SIZE))


def _bad_header(data, h):
    # J-006, J-023, S-006: badHeader at offset 0, bytes min(64, size).
    return Finding("badHeader", 0, min(FILE_HEADER_SIZE, len(data)), note=h.reason)


# --------------------------------------------------------------------------------------
# A journal read alone (4.4; a `journal` conformance vector)
# --------------------------------------------------------------------------------------

class JournalResult:
    def __init__(self):
        self.header = None
        self.header_valid = False
        self.page = Page()
        self.frames = []          # listed frames (README `frames`)
        self.findings = []        # walk findings, badHeader, badBody, in file order
        self.info = []            # P-006 information (not listed for a journal vector)
        self.valid_end = 0
        self.refused = False
        self.stopped = False
        self.next_sequence = None


def read_journal(data, mode="salvage", skip_below=0):
    """Section 4: header (4.1), frame walk (4.2), bodies decoded (J-026) and applied to
    an empty page. Frames with sequence < skip_below are walked and listed but neither
    decoded nor applied (P-004, the README's `replayFrom`)."""
    assert mode in MODES
    res = JournalResult()
    h = JournalHeader(data)
    res.header = h
    res.header_valid = h.valid
    if _torn_creation(data, h):                                       # J-028
        res.findings.append(Finding("tornCreation", 0, len(data), torn_tail=True,
                                    note=h.reason))
        return res
    if not h.valid:                                                   # J-023
        res.findings.append(_bad_header(data, h))
        if mode == "strict":
            res.refused = True
            return res
        if mode == "prefix" or not h.salvageable:
            res.stopped = mode == "prefix"
            return res
    w = walk_frames(data, FILE_HEADER_SIZE, h.salt, h.first_sequence, mode)
    res.valid_end = w.valid_end
    res.next_sequence = w.next_sequence
    res.stopped = w.stopped
    res.refused = res.refused or w.refused
    findings = res.findings + w.findings
    stop_at = None
    for fr in w.frames:
        res.frames.append(fr)
        if fr.sequence < skip_below:                                  # P-004
            continue
        try:
            if mode == "salvage":
                change, bad_points = decode_salvage(data, fr)             # E-007
                if bad_points is not None:
                    findings.append(Finding("badPoints", fr.offset, fr.size, note=bad_points))
            else:
                change = decode_frame(data, fr)
        except DecodeError as e:                                      # J-026
            findings.append(Finding("badBody", fr.offset, fr.size, note=str(e)))
            if mode == "strict":
                res.refused = True
            if mode == "prefix":
                stop_at = fr.offset
                res.stopped = True
                break
            continue
        for k in res.page.apply(change):                              # P-006
            res.info.append(Finding(k, fr.offset, 0, info=True))
    findings.sort(key=lambda f: f.offset)                             # file order (stable)
    # A bad body does not change validEnd: it is the walk's (J-013), also in prefix
    # mode (vector bad-journal-bad-body [prefix]). ROUND 2 (R2-9).
    if stop_at is not None:                                           # `stop` (J-021)
        findings = [f for f in findings if f.offset <= stop_at]
    res.findings = findings
    if res.refused:
        res.frames = []
        res.page = Page()
    return res


def read_named_journal(data, mode="salvage", page_id=None, base=None):
    """K-017: read_journal of a file whose name gives its page id and base: a usable header
    of another page is foreignJournal and its frames are not read (J-005); another base is
    baseMismatch and they are (J-007); strict mode refuses either."""
    h = JournalHeader(data)
    usable = not _torn_creation(data, h) and (h.valid or (mode == "salvage" and h.salvageable))
    foreign = usable and page_id is not None and h.page_id != page_id
    mismatch = usable and not foreign and base is not None and h.base_generation != base
    if foreign or (mismatch and mode == "strict"):
        res = JournalResult()
        res.header, res.header_valid = h, h.valid
        if not h.valid:
            res.findings.append(_bad_header(data, h))
        res.findings.append(Finding("foreignJournal", 16, 16) if foreign else Finding("baseMismatch", 32, 8))
        res.refused = mode == "strict"
        return res
    res = read_journal(data, mode)
    if mismatch:
        at = sum(1 for f in res.findings if f.offset <= 32)           # file order
        res.findings.insert(at, Finding("baseMismatch", 32, 8))
    return res


# --------------------------------------------------------------------------------------
# Snapshot reading (section 7)
# --------------------------------------------------------------------------------------

class SnapshotResult:
    def __init__(self):
        self.header = None
        self.header_valid = False
        self.page = Page()
        self.findings = []
        self.refused = False
        self.generation = None    # null when the header is not used (S-006)
        self.next_sequence = None
        self.usable = False       # False: lost (P-008)


def read_snapshot(data, mode="salvage", page_id=None):
    """Section 7 (S-001..S-007). page_id (16 bytes) enables S-004."""
    assert mode in MODES
    res = SnapshotResult()
    h = SnapshotHeader(data)
    res.header = h
    res.header_valid = h.valid
    if not h.valid:                                                   # S-006
        res.findings.append(_bad_header(data, h))
        if mode == "strict":
            res.refused = True
            return res
        if mode == "prefix" or not h.salvageable:
            return res                                                # lost (P-008)
    if page_id is not None and h.page_id != page_id:                  # S-004
        res.findings.append(Finding("foreignSnapshot", 16, 16))
        res.refused = mode == "strict"
        return res
    res.generation = h.generation
    res.next_sequence = h.next_sequence
    # S-003: the salvage rules in salvage and prefix mode; strict walks as salvage and
    # refuses on any damage.
    w = walk_frames(data, FILE_HEADER_SIZE, h.salt, 1,
                    "strict" if mode == "strict" else "salvage")
    findings = list(w.findings)
    page = res.page
    metadata_read = False
    for fr in w.frames:
        # S-007: sequence 1 is the pageMetadata frame, every later one an elementAppend.
        want = T_PAGE_METADATA if fr.sequence == 1 else T_ELEMENT_APPEND
        if fr.type != want:
            findings.append(Finding("unexpectedFrame", fr.offset, fr.size))
            continue
        try:
            if mode == "salvage":
                change, bad_points = decode_salvage(data, fr)             # E-007
            else:
                change, bad_points = decode_frame(data, fr), None
        except DecodeError as e:
            findings.append(Finding("badBody", fr.offset, fr.size, note=str(e)))
            continue
        if bad_points is not None:
            findings.append(Finding("badPoints", fr.offset, fr.size, note=bad_points))
        if fr.sequence == 1:
            metadata_read = True
        if page.apply(change):             # an id already in the snapshot (S-007, damage)
            findings.append(Finding("duplicateElement", fr.offset, fr.size))
    findings.sort(key=lambda f: f.offset)
    # S-010: missingMetadata is decided on the frame and body findings alone, before the
    # element counts; both counts are the elements kept.
    if not metadata_read and not any(not f.informational for f in findings):   # S-009
        findings.append(Finding("missingMetadata", FILE_HEADER_SIZE, 0))
    if len(page.elements) < h.element_count:                          # S-003
        findings.append(Finding("missingElements", len(data), 0,
                                note="%d of %d" % (len(page.elements), h.element_count)))
    elif len(page.elements) > h.element_count:                        # S-008
        findings.append(Finding("extraElements", len(data), 0))
    res.findings.extend(findings)
    res.usable = True
    if mode == "strict" and any(not f.informational for f in res.findings):
        res.refused = True
    return res


# --------------------------------------------------------------------------------------
# Page recovery (section 5)
# --------------------------------------------------------------------------------------

UUID_RE = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
# P-024: a page id in a snapshot or journal name is matched in any case.
UUID_ANY_CASE_RE = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
JOURNAL_NAME_RE = re.compile(r"^(%s)\.(0|[1-9][0-9]*)\.journal\Z" % UUID_ANY_CASE_RE)  # J-001, P-024
SNAPSHOT_NAME_RE = re.compile(r"^(%s)\.content\Z" % UUID_ANY_CASE_RE)                 # section 7, P-024
SNAPSHOT_TMP_RE = re.compile(r"^(%s)\.content\.tmp\Z" % UUID_RE)      # P-011; lowercase only (P-024)


def _temp_name(rel, name):
    """K-016: whether `name` in the package folder `rel` ("" the top) is an engine temp name."""
    if rel == "":
        return name in ("document.json.tmp", "manifest.json.tmp")
    pattern = {"pages": SNAPSHOT_TMP_RE, "assets": ASSET_TMP_RE, "thumbnails": THUMB_TMP_RE}.get(rel)
    return bool(pattern and pattern.match(name))


def _engine_name(rel, name):
    """K-030: whether `name` in the package folder `rel` ("" the top) is one the engine
    reads or writes (its temp names included)."""
    if rel == "":
        return name in ("document.json", "manifest.json", ".lock", "pages", "assets", "thumbnails",
                        "lost+found") or _temp_name(rel, name)
    if rel == "pages":
        return parse_page_file(name) is not None
    if rel == "assets":
        return bool(ASSET_NAME_RE.match(name) or ASSET_TMP_RE.match(name))
    if rel == "thumbnails":
        return bool(THUMB_NAME_RE.match(name) or THUMB_TMP_RE.match(name))
    return False


def parse_page_file(name):
    """('snapshot'|'journal'|'tmp', page id text, base or None), or None (P-015). The page
    id is returned in lowercase, whatever the case of its hex letters in the name (P-024);
    a temp name is lowercase only. `page_file_name` gives the lowercase spelling."""
    m = SNAPSHOT_NAME_RE.match(name)
    if m:
        return "snapshot", m.group(1).lower(), None
    m = JOURNAL_NAME_RE.match(name)
    if m and int(m.group(2)) < 1 << 64:       # J-001: the base is a u64
        return "journal", m.group(1).lower(), int(m.group(2))
    m = SNAPSHOT_TMP_RE.match(name)
    if m:
        return "tmp", m.group(1), None
    return None


def page_file_name(what, page, base=None):
    """The name a writer gives a page file (J-001, section 7): lowercase (P-024)."""
    if what == "snapshot":
        return page + ".content"
    if what == "journal":
        return "%s.%d.journal" % (page, base)
    return page + ".content.tmp"


def _name_bytes(name):
    return os.fsencode(name) if isinstance(name, str) else bytes(name)


def select_page_files(names):
    """P-024: of page file names that differ only in the case of the page id (the same
    snapshot, or the journal of the same base), the page reads the lowercase one if it is
    there, else the first in byte order; the others are shadowed (never read).
    `names` are snapshot and journal names (parse_page_file). Returns (read, shadowed,
    not_lowercase): the names read, the names shadowed and the names read that are not
    in lowercase (K-092), each in byte order."""
    spellings = {}            # (what, page, base) -> names
    for n in names:
        spellings.setdefault(parse_page_file(n), []).append(n)
    read, shadowed, not_lowercase = [], [], []
    for key, group in spellings.items():
        lower = page_file_name(*key)
        group = sorted(group, key=_name_bytes)
        chosen = lower if lower in group else group[0]
        read.append(chosen)
        shadowed += [n for n in group if n != chosen]
        if chosen != lower:
            not_lowercase.append(chosen)
    return (sorted(read, key=_name_bytes), sorted(shadowed, key=_name_bytes),
            sorted(not_lowercase, key=_name_bytes))


class PageResult:
    def __init__(self):
        self.page = Page()
        self.generation = 0
        self.next_sequence = 1
        self.refused = False
        self.findings = []        # (file name, Finding), damage and information
        self.retained = []        # journals with base < G (P-003)
        self.frames_replayed = 0
        self.shadowed = []        # names P-024 does not read, in byte order
        self.not_lowercase = []   # names read that are not in lowercase (P-024, K-092)

    def frames_dropped(self):
        """K-005 `framesDropped`, as far as the findings tell: the sequences reported
        missing, the frames with a bad body and the snapshot elements lost."""
        n = 0
        for _, f in self.findings:
            if f.missing and f.kind != "snapshotLost":
                n += f.missing[1] - f.missing[0]
            elif f.kind == "badBody":
                n += 1
            elif f.kind == "missingElements" and f.note:
                got, want = (int(x) for x in f.note.split(" of "))
                n += want - got
        return n

    def finding_kinds(self):
        """The sorted, de-duplicated kinds of the damage findings (README, J-027)."""
        return sorted({f.kind for _, f in self.findings if not f.informational})


def _note_absorbed(buf, f, name, appended, removed):
    """P-017 (b): record the ids an absorbed frame appends or removes (ids only)."""
    body = f.offset + FRAME_HEADER_SIZE + 8
    if f.type == T_ELEMENT_APPEND and body + 17 <= f.end:
        appended.append((bytes(buf[body + 1:body + 17]), name, f.offset))
    elif f.type == T_ELEMENT_REPLACE and body + 16 <= f.end:
        removed.add(bytes(buf[body:body + 16]))
    elif f.type == T_ELEMENTS_DELETE:
        try:
            removed.update(decode_frame(buf, f).ids)
        except DecodeError:
            pass


def recover_page(pages_dir, mode="salvage", page_id_text=None, names=None):
    """`recover` of section 5 (P-001..P-009, P-015, P-024)."""
    assert mode in MODES
    res = PageResult()
    if names is None:
        names = sorted(os.listdir(pages_dir))
    parsed = [(n, parse_page_file(n)) for n in names]
    parsed = [(n, p) for n, p in parsed if p is not None]              # P-015
    if page_id_text is None:
        ids = sorted({p[1] for _, p in parsed if p[0] != "tmp"})
        if not ids:
            return res                                                  # P-001
        page_id_text = ids[0]
    page_id_text = page_id_text.lower()                                # P-024
    pid = uuid_bytes(page_id_text)
    own = []
    for n, (what, page, base) in parsed:
        if page != page_id_text:
            continue
        if what == "tmp":
            res.findings.append((n, Finding("leftoverTemp", 0, 0, info=True)))    # P-015
        else:
            own.append(n)
    # P-024: one name per snapshot and per journal base; shadowed names are never read.
    read_names, res.shadowed, res.not_lowercase = select_page_files(own)
    snapshot = None
    journals = []
    for n in read_names:
        what, _, base = parse_page_file(n)
        if what == "snapshot":
            snapshot = n
        else:
            journals.append((base, n))
    journals.sort()

    def read(name):
        with open(os.path.join(pages_dir, name), "rb") as f:
            return f.read()

    def refuse():
        res.refused = True
        res.page = Page()
        return res

    G, S, lost = 0, 1, False                                           # P-001
    page = res.page
    snapshot_ids = set()
    if snapshot is not None:
        sr = read_snapshot(read(snapshot), mode, pid)
        res.findings += [(snapshot, f) for f in sr.findings]
        if sr.refused:
            return refuse()
        if sr.usable:
            res.page = page = sr.page
            G, S = sr.generation, sr.next_sequence
            snapshot_ids = {e.id for e in page.elements}
        else:
            lost = True                                                # P-008
    res.generation = G
    expected = None if lost else S
    stopped = False
    appended, removed = [], set()                                      # P-017 (b)
    for base, name in journals:
        retained = base < G and not lost                               # P-003
        if stopped and not retained:                                   # P-007
            res.findings.append((name, Finding("notReplayed", 0, 0)))
            continue
        data = read(name)
        h = JournalHeader(data)
        if retained:
            # P-017 (a): a retained journal holds only frames below S; one that does not
            # is `snapshotAhead` and is replayed like any other.
            ahead = None
            if not _torn_creation(data, h) and (h.valid or h.salvageable) and h.page_id == pid:
                rw = walk_frames(data, FILE_HEADER_SIZE, h.salt, h.first_sequence, "salvage")
                ahead = next((f for f in rw.accepted if f.sequence >= S), None)
            if ahead is None:
                res.retained.append(name)
                res.findings.append((name, Finding("retainedJournal", 0, 0, info=True)))
                continue
            res.findings.append((name, Finding("snapshotAhead", ahead.offset, 0)))
            if stopped:
                res.findings.append((name, Finding("notReplayed", 0, 0)))
                continue
        if _torn_creation(data, h):                                    # J-028
            res.findings.append((name, Finding("tornCreation", 0, len(data), torn_tail=True,
                                               note=h.reason)))
            continue
        if not h.valid:                                                # J-023
            res.findings.append((name, _bad_header(data, h)))
            if mode == "strict":
                return refuse()
            if mode == "prefix":
                stopped = True
                continue
            if not h.salvageable:
                continue
        if h.page_id != pid:                                           # J-005
            res.findings.append((name, Finding("foreignJournal", 16, 16)))
            if mode == "strict":
                return refuse()
            continue
        if h.base_generation != base:                                  # J-007
            res.findings.append((name, Finding("baseMismatch", 32, 8)))
            if mode == "strict":
                return refuse()
        w = walk_frames(data, FILE_HEADER_SIZE, h.salt, h.first_sequence, mode)
        walk_findings = list(w.findings)
        res.findings += [(name, f) for f in walk_findings]
        if w.refused:
            return refuse()
        for f in w.accepted:                                           # P-018
            if expected is None:                                       # P-008
                expected = f.sequence
                if expected > 1:
                    res.findings.append((name, Finding("snapshotLost", 0, 0, missing=(1, expected))))
                    if mode != "salvage":
                        stopped = True
                        break
            if f.sequence < expected:                                  # P-004
                if f.sequence < S:
                    _note_absorbed(data, f, name, appended, removed)
                    continue
                res.findings.append((name, Finding("sequenceRegression", f.offset, f.size)))
                if mode != "salvage":                                  # J-021
                    stopped = True
                    break
                continue
            if f.sequence > expected:
                missing = (expected, f.sequence)
                # P-016: one loss is one finding: a gap whose missing sequences a walk
                # finding of this file already reported is not reported again.
                if not any(g.missing == missing for g in walk_findings):
                    res.findings.append((name, Finding("sequenceGap", f.offset, 0,
                                                       missing=missing)))
                if mode != "salvage":
                    stopped = True
                    break
            expected = f.sequence + 1
            if f.type > 127:                                           # padding, ancillary
                continue
            try:                                                       # J-026
                if mode == "salvage":
                    change, bad_points = decode_salvage(data, f)       # E-007
                else:
                    change, bad_points = decode_frame(data, f), None
            except DecodeError as e:
                res.findings.append((name, Finding("badBody", f.offset, f.size, note=str(e))))
                if mode != "salvage":
                    stopped = True
                    break
                continue
            if bad_points is not None:
                res.findings.append((name, Finding("badPoints", f.offset, f.size, note=bad_points)))
            res.frames_replayed += 1
            for k in page.apply(change):                               # P-006
                res.findings.append((name, Finding(k, f.offset, 0, info=True)))
        if stopped and mode == "strict":
            return refuse()
        if w.stopped:
            stopped = True
        # P-009: also after a page-level stop, so nextSequence may count frames that
        # were not applied.
        if expected is None:
            expected = max(h.first_sequence, w.next_sequence)
        else:
            expected = max(expected, w.next_sequence)
    for eid, name, off in appended:                                    # P-017 (b)
        if eid not in removed and eid not in snapshot_ids:
            res.findings.append((name, Finding("snapshotAhead", off, 0)))
    if mode == "strict" and res.finding_kinds():                       # J-022
        return refuse()
    res.next_sequence = 1 if expected is None else max(expected, S)   # P-009
    return res

# --------------------------------------------------------------------------------------
# Document package (section 10) and fsck without repair (section 11, K-028)
# --------------------------------------------------------------------------------------

DOCUMENT_JSON_BYTES_MAX = 16_777_216    # D-010
MANIFEST_JSON_BYTES_MAX = 1_048_576     # D-010
PAGES_PER_DOCUMENT_MAX = 10_000         # D-011
TITLE_BYTES_MAX = 1_024                 # D-020

# K-002 exit status bits.
EXIT_CORRECTED, EXIT_UNCORRECTED, EXIT_OPERATIONAL, EXIT_USAGE = 1, 4, 8, 16

ANY_UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}"
                         r"-[0-9a-fA-F]{12}\Z")
ASSET_NAME_RE = re.compile(r"^(%s)\.([a-z0-9]{1,8})\Z" % UUID_ANY_CASE_RE)    # D-040: the uuid in any case
ASSET_TMP_RE = re.compile(r"^(%s)\.([a-z0-9]{1,8})\.tmp\Z" % UUID_RE)         # K-016
THUMB_NAME_RE = re.compile(r"^(%s)\.png\Z" % UUID_RE)                         # D-050
THUMB_TMP_RE = re.compile(r"^(%s)\.png\.tmp\Z" % UUID_RE)                     # K-016
# Kinds of 4.4 without an offset ("-" in the table).
NO_SPOT_KINDS = {"notReplayed", "snapshotLost", "retainedJournal", "leftoverTemp"}

class PackageReport:
    """What `fsck` without `--repair` reports for one package (K-001..K-006)."""

    def __init__(self, path):
        self.path = path
        self.findings = []        # K-003 dicts
        self.pages = []           # K-005 entries of the listed pages, in order
        self.page_elements = {}   # page id -> element ids after replay
        self.files = 0            # regular files looked at (K-006 `files`)
        self.document = None      # the decoded document.json, or None when unusable
        self.operational = False  # K-002 bit 8
        self.single_file = False  # K-017: a journal or snapshot checked alone counts no package

    def add(self, kind, file, severity="error", offset=None, nbytes=None, detail=""):
        f = {"kind": kind, "severity": severity, "file": name_text(file)}
        if offset is not None:
            f["offset"] = offset
        if nbytes is not None:
            f["bytes"] = nbytes
        # K-004: a check without repair corrects nothing.
        f["action"] = "none" if severity == "info" else "unrepaired"
        f["detail"] = detail
        self.findings.append(f)

    @property
    def status(self):
        """K-002: the OR of 1 (corrected: never, without repair), 4 (uncorrected
        errors) and 8 (operational error: ioError findings, a missing path)."""
        st = 0
        # K-002 (R2-11): an ioError is an uncorrected error too, so it sets 4 and 8.
        if any(f["severity"] == "error" and f["kind"] != "operationalError"
               for f in self.findings):
            st |= EXIT_UNCORRECTED
        if self.operational:
            st |= EXIT_OPERATIONAL
        return st

    def error_kinds(self):
        """The sorted kinds of the error findings (README `findingKinds`).
        ROUND 2 (R2-3): de-duplicated, as for page vectors."""
        return sorted({f["kind"] for f in self.findings if f["severity"] == "error"})

    def to_json(self, mode="salvage"):
        errors = sum(1 for f in self.findings if f["severity"] == "error")
        return {"status": self.status, "path": self.path, "repair": False, "mode": mode,
                "findings": self.findings, "pages": self.pages,
                "counts": {"packages": 0 if self.single_file else 1,
                           "pages": len(self.pages), "files": self.files,
                           "errors": errors, "corrected": 0, "uncorrected": errors,
                           "info": len(self.findings) - errors}}


def _canonical_uuid(v):
    """D-001: canonical UUID text (either case); returns it lowercased, or None."""
    if isinstance(v, str) and ANY_UUID_RE.match(v):
        return v.lower()
    return None


JSON_DEPTH_MAX = 64


def json_text(raw):
    """D-082: the value of the bytes `raw` read as document.json and manifest.json are read;
    raises ValueError (UnicodeDecodeError is one) with the reason when they are not such JSON.
    Python's own parser takes NaN and Infinity, the first or last of two equal names, lone
    surrogate escapes and any depth (until its recursion fails): those are refused here."""
    if raw[:3] == b"\xef\xbb\xbf":
        raw = raw[3:]                        # one byte-order mark is ignored
    text = raw.decode("utf-8")               # strict: no overlong forms, no surrogates
    depth = 0
    for m in re.finditer(r'[\[\]{}]', re.sub(r'"(?:[^"\\]+|\\.)*"', '""', text)):
        depth += 1 if m.group() in "[{" else -1
        if depth > JSON_DEPTH_MAX:
            raise ValueError("arrays and objects nest more than %d deep" % JSON_DEPTH_MAX)
    value = json.loads(text, object_pairs_hook=_unique_members, parse_constant=_no_constant,
                       parse_int=_nearest_double_int)
    _no_lone_surrogate(value)
    return value


def _unique_members(pairs):
    names = set()
    for name, _ in pairs:
        if name in names:
            raise ValueError("the name %r appears twice in one object" % name)
        names.add(name)
    return dict(pairs)


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)


def _nearest_double_int(digits):
    v = float(digits)                        # a number is read as the nearest double
    return int(v) if math.isfinite(v) else v


def _no_lone_surrogate(value):
    if isinstance(value, str):
        value.encode("utf-8")                # a lone surrogate escape raises here
    elif isinstance(value, dict):
        for k, v in value.items():
            _no_lone_surrogate(k)
            _no_lone_surrogate(v)
    elif isinstance(value, list):
        for v in value:
            _no_lone_surrogate(v)


def _is_int(v):
    """D-081: a JSON integer is a number whose value is whole, however it is written
    (`6120`, `6120.0`, `6.12e3`); the callers then check its range."""
    if isinstance(v, float):
        return math.isfinite(v) and v.is_integer()
    return isinstance(v, int) and not isinstance(v, bool)


def _times_ok(obj):
    """D-024: `created` and `modified` are strings of at most 64 bytes."""
    return all(isinstance(obj.get(k), str) and len(obj[k].encode("utf-8")) <= 64
               for k in ("created", "modified"))


def parse_document(raw):
    """D-010, D-011, D-020, D-082. Returns (document dict, None) or (None, reason).

    D-024 (R2-4): every key of the 10.1 example is required with its type: `title` a
    string of at most 1,024 UTF-8 bytes, `created`/`modified` strings of at most 64
    bytes (form not checked); each page an object with a canonical UUID `id` (either
    case, unique), integer `width`/`height` in 0 ... 2^32-1, `created`/`modified` as
    above and an integer `elementCount` in 0 ... 2^53; at most pagesPerDocumentMax pages."""
    if len(raw) > DOCUMENT_JSON_BYTES_MAX:
        return None, "larger than documentJSONBytesMax (D-010)"
    try:
        doc = json_text(raw)
    except ValueError as e:
        return None, "does not parse: %s" % e
    if not isinstance(doc, dict):
        return None, "not a JSON object"
    if doc.get("format") != "lnote.document":
        return None, "format is not lnote.document (D-020)"
    if not _is_int(doc.get("version")) or doc["version"] != 1:
        return None, "version is not 1 (D-020)"
    if _canonical_uuid(doc.get("id")) is None:
        return None, "id is not a canonical UUID (D-001)"
    title = doc.get("title")
    if not isinstance(title, str) or len(title.encode("utf-8")) > TITLE_BYTES_MAX:
        return None, "title is not a string of at most 1,024 bytes (D-020)"
    if not _times_ok(doc):
        return None, "created/modified are not strings of at most 64 bytes (D-024)"
    pages = doc.get("pages")
    if not isinstance(pages, list):
        return None, "pages is not an array (D-020)"
    if len(pages) > PAGES_PER_DOCUMENT_MAX:
        return None, "more than pagesPerDocumentMax pages (D-011)"
    seen = set()
    for p in pages:
        if not isinstance(p, dict):
            return None, "a page entry is not an object"
        pid = _canonical_uuid(p.get("id"))
        if pid is None:
            return None, "a page id is not a canonical UUID (D-001)"
        if pid in seen:
            return None, "page %s is listed twice (D-011)" % pid
        seen.add(pid)
        # D-024 (G37): elementCount is at most 2^53, the end of the integers a double holds
        # exactly (D-082 reads every number as its nearest double).
        for key, top in (("width", 2**32 - 1), ("height", 2**32 - 1), ("elementCount", 2**53)):
            if not _is_int(p.get(key)) or not 0 <= p[key] <= top:
                return None, "page %s: %s is missing or out of range (D-024)" % (pid, key)
        if not _times_ok(p):
            return None, "page %s: created/modified are not strings of at most 64 bytes" % pid
    return doc, None


def manifest_problem(raw, doc):
    """D-031: why manifest.json is stale, or None. `raw` is None when it is missing."""
    if raw is None:
        return "missing"
    if len(raw) > MANIFEST_JSON_BYTES_MAX:
        return "larger than manifestJSONBytesMax (D-010)"
    try:
        m = json_text(raw)
    except ValueError:
        return "does not parse"
    if not isinstance(m, dict) or m.get("format") != "lnote.manifest":
        return "not an lnote.manifest object"
    if not _is_int(m.get("version")) or m["version"] != 1:
        return "of another version"
    if doc is None:
        return None       # nothing to agree with (document.json unusable)
    # D-080: the id in canonical lower-case text, the format exactly, the cover too.
    if m.get("id") != _canonical_uuid(doc.get("id")):
        return "id disagrees with document.json"
    pages = doc["pages"]
    cover = "thumbnails/%s.png" % _canonical_uuid(pages[0].get("id")) if pages else None
    if m.get("cover") != cover:
        return "cover disagrees with document.json"
    for key in ("title", "modified"):
        if m.get(key) != doc.get(key):
            return "%s disagrees with document.json" % key
    if m.get("pageCount") != len(doc["pages"]) or not _is_int(m.get("pageCount")):
        return "pageCount disagrees with document.json"
    return None


def _try_lock(path):
    """K-015: 'free' if the flock can be taken, 'held' if another process holds it,
    None if it cannot be tested. The lock is released at once; nothing is written."""
    try:
        import fcntl
    except ImportError:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return "held"
        except OSError:
            return None
        fcntl.flock(fd, fcntl.LOCK_UN)
        return "free"
    finally:
        os.close(fd)


ASSET_BYTES_MAX = 256 << 20


def content_id(digest):
    """D-043: the content id of an asset whose SHA-256 is `digest`."""
    b = bytearray(digest[:16])
    b[6] = (b[6] & 0x0F) | 0x80
    b[8] = (b[8] & 0x3F) | 0x80
    return str(_uuid.UUID(bytes=bytes(b)))


def _check_asset_content(rep, root, name, asset_id):
    """D-045, K-014: an asset named by a content id (version 8, variant 10) holds the bytes
    that give it; read a chunk at a time."""
    raw = _uuid.UUID(asset_id).bytes
    if raw[6] >> 4 != 8 or raw[8] >> 6 != 2:
        return
    h = hashlib.sha256()
    size = 0
    with open(os.path.join(root, "assets", name), "rb") as f:
        while size <= ASSET_BYTES_MAX:
            chunk = f.read(1 << 20)
            if not chunk:
                break
            size += len(chunk)
            h.update(chunk)
    if size > ASSET_BYTES_MAX or content_id(h.digest()) != asset_id.lower():
        rep.add("assetContentMismatch", "assets/" + name,
                detail="its bytes do not give its content id (D-045)")


def _image_assets(page):
    return {uuid_text(e.fields["asset"]) for e in page.elements if e.kind == 2}




def check_package(path, mode="salvage"):
    """fsck of one package without repair (sections 10, 11; K-011..K-016, K-028).
    Changes nothing on disk."""
    rep = PackageReport(path)
    if not os.path.isdir(path) or os.path.islink(path):
        # K-002: a path that cannot be checked at all sets 8 alone.
        rep.add("operationalError", "", detail="not a package folder")
        rep.operational = True
        return rep

    def entries(rel):
        """(name, kind) of a folder inside the package; links are reported (K-018)
        and not read."""
        full = os.path.join(path, rel)
        out = []
        try:
            names = sorted(os.listdir(full))
        except OSError as e:
            rep.add("ioError", rel, detail=str(e))
            rep.operational = True
            return out
        for n in names:
            p = os.path.join(full, n)
            r = os.path.join(rel, n) if rel else n
            if os.path.islink(p):
                # K-018: a link at a name the engine uses is a symlink error; at a temp name
                # of K-016 it is that leftover temp, at any other name foreign (K-019): the
                # caller reports those.
                if _engine_name(rel, n) and not _temp_name(rel, n):
                    rep.add("symlink", r, detail="a link inside the package is not followed "
                                                 "(D-002, K-018)")
                out.append((n, "link"))
                continue
            try:
                st = os.lstat(p)
            except OSError as e:
                rep.add("ioError", r, detail=str(e))
                rep.operational = True
                continue
            kind = "dir" if stat.S_ISDIR(st.st_mode) else "file" if stat.S_ISREG(st.st_mode) else "other"
            rep.files += 0 if kind == "dir" else 1
            out.append((n, kind))
        return out

    def read_file(rel):
        try:
            with open(os.path.join(path, rel), "rb") as f:
                return f.read()
        except OSError as e:
            rep.add("ioError", rel, detail=str(e))
            rep.operational = True
            return None

    top = dict(entries(""))

    # K-030: a folder, FIFO, socket or device where a file belongs is notRegularFile, a file
    # where a folder belongs notAFolder (a FIFO, socket or device there notRegularFile):
    # errors, and the name is not read.
    refused = set()
    for n in ("document.json", "manifest.json", ".lock", "pages", "assets", "thumbnails", "lost+found"):
        want = "dir" if n in ("pages", "assets", "thumbnails", "lost+found") else "file"
        k = top.get(n)
        if k == "link":
            refused.add(n)    # reported as symlink by entries()
        elif k is not None and k != want:
            rep.add("notAFolder" if k == "file" else "notRegularFile", n,
                    detail="a %s where a %s belongs (D-004, K-030); not read"
                    % ({"dir": "folder", "file": "file"}.get(k, "FIFO, socket or device"),
                       "folder" if want == "dir" else "file"))
            refused.add(n)

    # document.json (K-012, D-010, D-011, D-020)
    doc = None
    if top.get("document.json") == "file":
        raw = read_file("document.json")
        if raw is not None:
            doc, why = parse_document(raw)
            if doc is None:
                rep.add("documentInvalid", "document.json", detail=why)
    elif "document.json" not in top and not os.path.islink(os.path.join(path, "document.json")):
        rep.add("documentMissing", "document.json", detail="document.json does not exist")
    rep.document = doc

    # K-012 / D-001: the folder name.
    folder = os.path.basename(os.path.normpath(path))
    stem = folder[:-len(".lnote")] if folder.endswith(".lnote") else None
    if doc is not None:
        if stem is not None and ANY_UUID_RE.match(stem):
            if stem.lower() != _canonical_uuid(doc["id"]):
                rep.add("folderNameMismatch", "", detail="folder %s, document id %s"
                        % (folder, doc["id"]))
        # K-012 (R2-2): a folder not named <uuid>.lnote gets no finding.

    # manifest.json (D-031, K-012). A link is a missing manifest (D-002).
    if doc is None or "manifest.json" in refused:
        pass          # K-029 (R2-6): nothing to agree with, or K-030: not read
    else:
        raw = read_file("manifest.json") if top.get("manifest.json") == "file" else None
        why = manifest_problem(raw, doc)
        if why is not None:
            rep.add("staleManifest", "manifest.json", detail="manifest.json is stale: " + why)

    # Engine temporary files (K-016): each one left behind is an error.
    for n in ("document.json.tmp", "manifest.json.tmp"):
        if n in top:
            rep.add("leftoverTemp", n, detail="temporary file left by an interrupted write")

    # .lock (K-015): information when checking.
    if top.get(".lock") == "file":
        state = _try_lock(os.path.join(path, ".lock"))
        if state == "free":
            rep.add("staleLock", ".lock", severity="info", detail="no writer holds the lock")
        elif state == "held":
            rep.add("lockedElsewhere", ".lock", severity="info",
                    detail="open for writing elsewhere")

    # K-019 (R2-5): unknownFile only in pages/ and assets/; top-level names are not reported.

    # pages/ (K-011, K-013, P-015, P-024, K-092)
    page_files = {}           # page id -> names
    not_read = set()          # K-030: pages with a page file that is not a regular file
    if top.get("pages") == "dir":
        for n, kind in entries("pages"):
            p = parse_page_file(n)
            if p is not None and p[0] != "tmp" and kind != "file":
                if kind != "link":    # a link is reported as symlink by entries()
                    rep.add("notRegularFile", "pages/" + n,
                            detail="not a regular file (D-004, K-030); the page is not read")
                not_read.add(p[1])
                page_files.setdefault(p[1], [])
                continue
            if p is None:
                rep.add("unknownFile", "pages/" + n, severity="info",
                        detail="not a page file name (J-001, P-015)")
            elif p[0] == "tmp":
                # K-016: an error in fsck, though P-015 / 4.4 make it information in
                # page recovery. ROUND 2 (R2-7).
                rep.add("leftoverTemp", "pages/" + n,
                        detail="temporary snapshot left by an interrupted write (K-016)")
            else:
                page_files.setdefault(p[1], []).append(n)
    listed = [] if doc is None else [_canonical_uuid(p["id"]) for p in doc["pages"]]
    listed_set = set(listed)
    if doc is not None:
        for pid in sorted(page_files):
            if pid not in listed_set:                                       # K-013
                for n in sorted(page_files[pid]):
                    rep.add("unlistedPage", "pages/" + n,
                            detail="page %s is not listed in document.json" % pid)
        to_check = listed
    else:
        # ROUND 2 (R2-6): with document.json unusable the pages present are still
        # checked (K-011), but none is listed, so no unlistedPage is reported.
        to_check = sorted(page_files)
    refs = {}                 # asset id -> first listed page that shows it
    recovered = {}
    for pid in to_check:
        if pid in not_read or "pages" in refused:
            # K-030: a page file, or pages/ itself, is not a regular file (a folder): not read.
            if pid in listed_set:
                rep.pages.append({"id": pid, "package": "", "elements": 0, "framesReplayed": 0,
                                  "framesDropped": 0, "generation": 0, "state": "refused"})
                rep.page_elements[pid] = []
            continue
        names = sorted(page_files.get(pid, []))
        # K-092: a page file the page reads under a name not in lowercase is pageFileCase
        # (information); a name P-024 shadows is shadowedPageFile (an error), never read
        # and not one of the page's files for any other check. In name order.
        read_names, shadowed, not_lowercase = select_page_files(names)
        for n in sorted(shadowed + not_lowercase, key=_name_bytes):
            if n in shadowed:
                rep.add("shadowedPageFile", "pages/" + n,
                        detail="another spelling of this page file's name is read instead; "
                               "its bytes are not on the page (P-024, K-092)")
            else:
                rep.add("pageFileCase", "pages/" + n, severity="info",
                        detail="the page reads this file under a name not in lowercase "
                               "(P-024, K-092)")
        names = read_names
        for n in names:       # D-005, K-030: a page file with a second name
            try:
                if os.lstat(os.path.join(path, "pages", n)).st_nlink > 1:
                    rep.add("hardLink", "pages/" + n, detail="the file has more than one name (D-005)")
            except OSError:
                pass
        pr = recover_page(os.path.join(path, "pages"), mode, pid, names)  # P-001 if none
        recovered[pid] = pr
        for name, f in pr.findings:
            if f.kind == "leftoverTemp":
                continue      # reported from the folder listing (K-016)
            sev = "info" if f.informational else "error"                    # K-011
            detail = f.note or ""
            if f.missing:
                detail = (detail + "; " if detail else "") + \
                    "sequences %d..<%d missing" % f.missing
            spot = f.kind not in NO_SPOT_KINDS                            # 4.4 table
            rep.add(f.kind, "pages/" + name, severity=sev,
                    offset=f.offset if spot else None,
                    nbytes=f.bytes if spot and not f.info or f.torn_tail
                    or f.kind == "unknownAncillaryType" else None,
                    detail=detail)
        if not pr.refused:                                                  # K-014
            for a in sorted(_image_assets(pr.page)):
                refs.setdefault(a, pid)
        if pid in listed_set or doc is None:      # K-029: without document.json, those present
            state = "refused" if pr.refused else (
                "damaged" if pr.finding_kinds() else "ok")
            rep.pages.append({"id": pid, "package": "", "elements": len(pr.page.elements),
                              "framesReplayed": pr.frames_replayed,
                              "framesDropped": pr.frames_dropped(),
                              "generation": pr.generation, "state": state})
            rep.page_elements[pid] = pr.page.ids()
    if doc is not None:
        for p in doc["pages"]:                                              # D-021
            pid = _canonical_uuid(p["id"])
            if pid not in recovered:
                continue      # K-030: not read
            n = len(recovered[pid].page.elements)
            if "elementCount" in p and p["elementCount"] != n \
                    and not recovered[pid].refused:
                rep.add("staleElementCount", "document.json", severity="info",
                        detail="page %s: elementCount %d, the page has %d"
                        % (pid, p["elementCount"], n))

    # assets/ (D-040, K-014)
    assets = {}
    if top.get("assets") == "dir":
        for n, kind in entries("assets"):
            m = ASSET_NAME_RE.match(n) if kind == "file" else None
            if ASSET_TMP_RE.match(n):
                # K-016: any object at a temp name is that leftover temp.
                rep.add("leftoverTemp", "assets/" + n, detail="temporary asset (K-016)")
            elif kind == "link" and ASSET_NAME_RE.match(n):
                pass          # reported as symlink
            elif kind != "file" and ASSET_NAME_RE.match(n):
                rep.add("notRegularFile", "assets/" + n,
                        detail="not a regular file where an asset belongs (D-004, K-030); not read")
            elif m:
                assets.setdefault(m.group(1).lower(), n)          # D-040: the id, any spelling
                _check_asset_content(rep, path, n, m.group(1))    # D-045
            elif n.endswith(".tmp"):
                pass          # K-019: not reported
            else:
                rep.add("unknownFile", "assets/" + n, severity="info",
                        detail="not an asset file name (D-040)")
    # K-014 (R2-12): the references are the images on the pages the check recovered, in
    # its mode; an asset file of any extension (D-040) satisfies its id; lost+found/ is
    # not read.
    for a in sorted(refs):
        if a not in assets:
            rep.add("missingAsset", "assets/%s" % a,
                    detail="an image on page %s refers to a missing asset" % refs[a])
    if assets:
        for a in sorted(assets):
            if a not in refs:
                rep.add("orphanAsset", "assets/" + assets[a], severity="info",
                        detail="no page shows this asset")

    # thumbnails/ (D-050, K-026)
    thumbs = set()
    thumbs_refused = set()    # K-030: a thumbnail name holding another kind of object
    if top.get("thumbnails") == "dir":
        for n, kind in entries("thumbnails"):
            m = THUMB_NAME_RE.match(n) if kind == "file" else None
            if THUMB_TMP_RE.match(n):
                # K-016: any object at a temp name is that leftover temp.
                rep.add("leftoverTemp", "thumbnails/" + n, detail="temporary thumbnail (K-016)")
            elif kind != "file" and THUMB_NAME_RE.match(n):
                if kind != "link":    # a link is reported as symlink by entries()
                    rep.add("notRegularFile", "thumbnails/" + n,
                            detail="not a regular file where a thumbnail belongs (D-004, K-030); not read")
                thumbs_refused.add(THUMB_NAME_RE.match(n).group(1))
            elif m:
                thumbs.add(m.group(1))
            # K-019: other names in thumbnails/ are not reported
    for pid in listed:
        if pid in thumbs_refused or "thumbnails" in refused:
            pass              # K-030: not read
        elif pid not in thumbs:
            rep.add("missingThumbnail", "thumbnails/%s.png" % pid, severity="info",
                    detail="thumbnail missing (K-026)")
        else:
            why = unusable_thumbnail(os.path.join(path, "thumbnails", pid + ".png"))
            if why:
                rep.add("badThumbnail", "thumbnails/%s.png" % pid, severity="info",
                        detail=why + " (D-051, K-026)")
    return rep


THUMBNAIL_BYTES_MAX = 4 << 20                                                   # D-051
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def unusable_thumbnail(file):
    """Why a thumbnail is no PNG an app can load (D-051), or None: larger than
    4 MiB, or not starting with the PNG signature. Reads 8 bytes at most."""
    try:
        size = os.stat(file).st_size
        if size > THUMBNAIL_BYTES_MAX:
            return "%d bytes, larger than %d" % (size, THUMBNAIL_BYTES_MAX)
        with open(file, "rb") as f:
            head = f.read(len(PNG_SIGNATURE))
    except OSError:
        return None
    return None if head == PNG_SIGNATURE else "not a PNG"


def check_file(path, mode="salvage"):
    """K-017: fsck of a single journal or snapshot without repair. A page file's name says
    which it is (and gives the page id and base the file is checked against: J-005, J-007,
    S-004); any other name is a snapshot iff the file starts with the snapshot magic. The
    file is read alone, as a journal or snapshot vector is."""
    rep = PackageReport(path)
    rep.single_file = True
    name = os.path.basename(os.path.normpath(path))
    with open(path, "rb") as f:
        data = f.read()
    rep.files = 1
    parsed = parse_page_file(name)
    pid = uuid_bytes(parsed[1]) if parsed else None
    if parsed:
        snapshot = parsed[0] in ("snapshot", "tmp")
    else:
        snapshot = data[:8] == SNAPSHOT_MAGIC
    if snapshot:
        r = read_snapshot(data, mode, page_id=pid)
    else:
        r = read_named_journal(data, mode, pid, parsed[2] if parsed else None)
    for f in r.findings:
        rep.add(f.kind, name, severity="info" if f.informational else "error", offset=f.offset,
                nbytes=f.bytes, detail=f.note or "")
    if r.refused:
        rep.add("refused", name, detail="strict mode refuses the file (J-022)")
    h = r.header
    rep.pages.append({"id": uuid_text(h.page_id) if h is not None and getattr(h, "page_id", None)
                      else (uuid_text(pid) if pid else "00000000-0000-0000-0000-000000000000"),
                      "package": "", "elements": len(r.page.elements)})
    return rep


def _package_actual(path):
    rep = check_package(path, "salvage")
    return {
        "fsckExit": rep.status,
        # README: the listed pages, in order, recovered in salvage mode; empty when
        # document.json is unusable.
        "pages": [] if rep.document is None else
                 [{"id": p["id"], "elements": rep.page_elements[p["id"]]} for p in rep.pages],
        "findingKinds": rep.error_kinds(),
    }


def fsck_main(args, out=sys.stdout):
    """`fsck PATH... [--json] [--mode M]`: a package, or a library folder of packages
    (K-018), checked without repair. Returns the K-002 status."""
    mode, as_json, paths = "salvage", False, []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--json":
            as_json = True
        elif a == "--mode" and i + 1 < len(args) and args[i + 1] in MODES:
            mode = args[i + 1]
            i += 1
        elif a.startswith("-"):
            print("usage: lnote_ref.py fsck PATH... [--json] [--mode salvage|prefix|strict]",
                  file=sys.stderr)
            return EXIT_USAGE
        else:
            paths.append(a)
        i += 1
    if not paths:
        print("usage: lnote_ref.py fsck PATH... [--json] [--mode salvage|prefix|strict]",
              file=sys.stderr)
        return EXIT_USAGE
    status = 0
    merged = {"status": 0, "path": paths[0] if len(paths) == 1 else " ".join(paths), "repair": False,
              "mode": mode, "findings": [], "pages": [],
              "counts": {"packages": 0, "pages": 0, "files": 0, "errors": 0, "corrected": 0,
                         "uncorrected": 0, "info": 0}}
    lines = []
    for path in paths:
        # K-002: with several paths, file names are prefixed by their path.
        lead = "" if len(paths) == 1 else os.path.normpath(path) + "/"
        name = os.path.basename(os.path.normpath(path))
        is_package = name.lower().endswith(".lnote") or os.path.exists(
            os.path.join(path, "document.json")) or os.path.isdir(os.path.join(path, "pages"))
        staging = []
        if os.path.isfile(path) and not os.path.islink(path):
            reports = [("", check_file(path, mode))]                  # K-017
        elif is_package or not os.path.isdir(path):
            reports = [("", check_package(path, mode))]
        else:
            # K-018: a library's packages are its folders named *.lnote (any case), not
            # hidden (D-032), not links; its staging folders whose lock no one holds are
            # stagingLeftover (D-033).
            names = sorted(os.listdir(path))
            reports = [(n + "/", check_package(os.path.join(path, n), mode)) for n in names
                       if n.lower().endswith(".lnote") and not n.startswith(".")
                       and not os.path.islink(os.path.join(path, n))
                       and os.path.isdir(os.path.join(path, n))]
            staging = [n for n in names if STAGING_RE.match(n)
                       and not os.path.islink(os.path.join(path, n))
                       and os.path.isdir(os.path.join(path, n))
                       and _staging_abandoned(os.path.join(path, n))]
            if not reports and not staging:
                rep = PackageReport(path)
                rep.add("operationalError", "", detail="no .lnote package here")
                rep.operational = True
                rep.no_package = True
                reports = [("", rep)]
        for n in staging:
            merged["findings"].append({"kind": "stagingLeftover", "severity": "info", "file": lead + n + "/",
                                       "action": "none",
                                       "detail": "a library staging folder a crash left behind (D-033)"})
            merged["counts"]["info"] += 1
        for prefix, rep in reports:
            status |= rep.status
            j = rep.to_json(mode)
            for f in j["findings"]:
                f = dict(f, file=lead + prefix + f["file"])
                merged["findings"].append(f)
                if f["severity"] == "error":
                    where = f["file"] + (" @%d" % f["offset"] if "offset" in f else "")
                    nb = " (%d bytes)" % f["bytes"] if "bytes" in f else ""
                    lines.append("%s: %s%s: %s -> %s" % (where, f["kind"], nb, f["detail"], f["action"]))
            for pg in j["pages"]:
                merged["pages"].append(dict(pg, package=lead + prefix))
            for k, v in j["counts"].items():
                merged["counts"][k] += v
            if getattr(rep, "no_package", False):
                merged["counts"]["packages"] -= 1
    merged["status"] = status
    if as_json:
        print(json.dumps(merged), file=out)
    elif not lines:
        print("ok", file=out)                                                # K-007
    else:
        for line in lines:
            print(line, file=out)
        print("%d errors, 0 corrected, %d uncorrected; exit status %d"
              % (len(lines), len(lines), status), file=out)
    return status


STAGING_RE = re.compile(r"^\.(%s)\.lnote-(creating|deleting)\Z" % r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _staging_abandoned(path):
    """D-033: no process holds the staging folder's own lock, nor its `.lock` (a missing
    `.lock` counts as free; a link there counts as held). Creates nothing."""
    try:
        import fcntl
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0))
    except (ImportError, OSError):
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
    lock = os.path.join(path, ".lock")
    if os.path.islink(lock):
        return False
    if not os.path.exists(lock):
        return True
    return os.path.isfile(lock) and _try_lock(lock) == "free"


# --------------------------------------------------------------------------------------
# Conformance runner (Spec/README.md)
# --------------------------------------------------------------------------------------

def _f32_bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def _contents(page):
    """README, differential vectors: `canvas` (the default US Letter when no pageMetadata
    was applied, D-023) and `contents`, every element's fields in z-order."""
    out = []
    for e in page.elements:
        f = e.fields
        t = None if f["transform"] is None else [_f32_bits(v) for v in f["transform"]]
        if e.kind == 1:
            out.append(["stroke", e.id_text, f["ink"], list(f["color"]), f["width"], t,
                        f["has_angles"], [list(p) for p in f["points"]]])
        else:
            item = ["image", e.id_text, uuid_text(f["asset"]), f["x"], f["y"],
                    f["width"], f["height"], t]
            if f.get("page") is not None:
                item.append(f["page"])                  # E-014: only for an image with a page
            out.append(item)
    canvas = [page.width if page.width is not None else 6120,
              page.height if page.height is not None else 7920]
    return {"canvas": canvas, "contents": out}


def _journal_actual(data, mode, entry, vectors_dir=None):
    """The `expect` object for a journal vector, computed. `replayFrom` (README) is an
    entry-level number, the page's expected sequence S (P-004); absent: 0."""
    skip_below = entry.get("replayFrom", 0) or 0
    jr = read_journal(data, mode, skip_below=skip_below)
    return {
        "refused": jr.refused,
        "headerValid": jr.header_valid,
        "frames": [{"sequence": fr.sequence, "type": fr.type, "offset": fr.offset}
                   for fr in jr.frames],
        "validEnd": jr.valid_end,
        "findings": [f.to_json() for f in jr.findings],
        "elements": jr.page.ids(),
        **_contents(jr.page),
    }


def _snapshot_actual(data, mode):
    sr = read_snapshot(data, mode)
    return {
        "refused": sr.refused,
        "headerValid": sr.header_valid,
        "generation": sr.generation,
        "nextSequence": sr.next_sequence,
        "elements": [] if sr.refused else sr.page.ids(),
        "findings": [f.to_json() for f in sr.findings],
        **_contents(sr.page),
    }


def _points_actual(data, entry):
    # README: `count` and `hasAngles` are entry-level inputs; the file holds exactly the
    # codec bytes of one stroke, bytes left over are an error (E-004).
    count = entry.get("count")
    has_angles = entry.get("hasAngles", False)
    try:
        r = Reader(data)
        pts = decode_points(r, count, has_angles)
        if r.remaining():
            raise DecodeError("%d trailing bytes" % r.remaining())
        return {"error": False, "points": [list(p) for p in pts]}
    except DecodeError as e:
        return {"error": True, "reason": str(e)}


def _page_actual(folder, mode):
    # README: the folder holds the page files directly (a package's `pages/`).
    pr = recover_page(folder, mode)
    return {
        "refused": pr.refused,
        "elements": [] if pr.refused else pr.page.ids(),
        "nextSequence": pr.next_sequence,
        "generation": pr.generation,
        "findingKinds": pr.finding_kinds(),
        **_contents(pr.page),
    }


def compare(expect, actual):
    """Compare every key present in `expect` (inputs `count`, `hasAngles`,
    `replayFrom` excluded). Returns None or a reason."""
    for key, want in expect.items():
        if key in ("count", "hasAngles", "replayFrom"):
            continue
        if key == "error":
            if bool(want) != actual.get("error", False):
                return "error: expected %s, got %s%s" % (
                    want, actual.get("error"),
                    " (%s)" % actual["reason"] if "reason" in actual else "")
            continue
        if key not in actual:
            return "unknown expect key %r" % key
        got = actual[key]
        if key == "points":
            if actual.get("error"):
                return "points: decoding failed (%s)" % actual.get("reason")
            if [list(map(_num, p)) for p in want] != [list(map(_num, p)) for p in got]:
                return "points differ: expected %s, got %s" % (_short(want), _short(got))
            continue
        if key == "elements":
            want = [str(w).lower() for w in want]
        if want != got:
            return "%s: expected %s, got %s" % (key, _short(want), _short(got))
    return None


def _num(v):
    return int(v) if isinstance(v, float) and v.is_integer() else v


def _short(v, limit=300):
    s = json.dumps(v)
    return s if len(s) <= limit else s[:limit] + "..."


def run_vector(vectors_dir, entry):
    """Returns ('ok'|'fail'|'skip', reason)."""
    kind = entry.get("kind")
    name = entry.get("name")
    mode = entry.get("mode", "salvage")
    expect = entry.get("expect", {})
    path = os.path.join(vectors_dir, name)
    if kind == "package":
        actual = _package_actual(path)
        reason = compare(expect, actual)
        return ("ok", None) if reason is None else ("fail", reason)
    if mode not in MODES:
        return "fail", "unknown mode %r" % mode
    if kind == "journal":
        with open(path, "rb") as f:
            actual = _journal_actual(f.read(), mode, entry, vectors_dir)
    elif kind == "snapshot":
        with open(path, "rb") as f:
            actual = _snapshot_actual(f.read(), mode)
    elif kind == "points":
        with open(path, "rb") as f:
            actual = _points_actual(f.read(), entry)
    elif kind == "page":
        actual = _page_actual(path, mode)
    else:
        return "fail", "unknown kind %r" % kind
    reason = compare(expect, actual)
    return ("ok", None) if reason is None else ("fail", reason)


def run_conformance(vectors_dir, out=None):
    out = out if out is not None else sys.stdout  # looked up at call time (redirectable)
    with open(os.path.join(vectors_dir, "manifest.json")) as f:
        manifest = json.load(f)
    passed = failed = skipped = 0
    for entry in manifest.get("vectors", []):
        name = entry.get("name", "?")
        try:
            status, reason = run_vector(vectors_dir, entry)
        except Exception as e:    # a crash on a vector is a failure of that vector
            status, reason = "fail", "exception %s: %s" % (type(e).__name__, e)
        if status == "ok":
            passed += 1
            print("ok %s" % name, file=out)
        elif status == "skip":
            skipped += 1
            print("skipped %s: %s" % (name, reason), file=out)
        else:
            failed += 1
            print("FAIL %s: %s" % (name, reason), file=out)
    line = "%d passed, %d failed" % (passed, failed)
    if skipped:
        line += ", %d skipped" % skipped
    print(line, file=out)
    return failed == 0


# --------------------------------------------------------------------------------------
# dump
# --------------------------------------------------------------------------------------

def dump(path, mode="salvage", out=None):
    out = out if out is not None else sys.stdout
    """Print a journal's or snapshot's header, the frames its walk (4.2) accepts, with
    decoded bodies, and the walk's findings."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] == SNAPSHOT_MAGIC:
        h = SnapshotHeader(data)
        print("snapshot %s: %d bytes, header %s" % (path, len(data),
              "valid" if h.valid else "INVALID (%s)" % h.reason), file=out)
        if not h.present:
            return
        print("  pageID %s generation %d salt 0x%016x nextSequence %d elementCount %d"
              % (uuid_text(h.page_id), h.generation, h.salt, h.next_sequence,
                 h.element_count), file=out)
        first = 1
    else:
        h = JournalHeader(data)
        print("journal %s: %d bytes, header %s" % (path, len(data),
              "valid" if h.valid else "INVALID (%s)" % h.reason), file=out)
        if not h.present:
            return
        print("  pageID %s baseGeneration %d salt 0x%016x firstSequence %d"
              % (uuid_text(h.page_id), h.base_generation, h.salt, h.first_sequence), file=out)
        first = h.first_sequence
    w = walk_frames(data, FILE_HEADER_SIZE, h.salt, first, mode)
    events = [(fr.offset, 0, fr) for fr in w.frames] + \
        [(f.offset, 1, f) for f in w.findings]
    for _, k, item in sorted(events, key=lambda e: (e[0], e[1])):
        if k == 0:
            try:
                desc = _describe(decode_frame(data, item))
            except DecodeError as e:
                desc = "BAD BODY: %s" % e
            print("  @%-8d seq %-6d len %-7d type 0x%02x %-17s %s"
                  % (item.offset, item.sequence, item.length, item.type,
                     KNOWN_CRITICAL[item.type], desc), file=out)
        else:
            print("  @%-8d %s %r" % (item.offset, "TORN" if item.torn_tail else "FINDING", item),
                  file=out)
    print("  validEnd %d nextSequence %d" % (w.valid_end, w.next_sequence), file=out)


def _describe(ch):
    t = ch.type
    if t == T_ELEMENT_APPEND:
        e = ch.element
        extra = " %d points" % len(e.fields["points"]) if e.kind == 1 else ""
        return "%r%s" % (e, extra)
    if t == T_ELEMENT_REPLACE:
        return "target %s -> %s" % (uuid_text(ch.target), ch.elements)
    if t == T_ELEMENTS_TRANSFORM:
        return ", ".join(uuid_text(i) for i, _ in ch.items)
    if t == T_ELEMENTS_DELETE:
        return ", ".join(uuid_text(i) for i in ch.ids)
    if t == T_ELEMENTS_REORDER:
        return "at %d: %s" % (ch.index, ", ".join(uuid_text(i) for i in ch.ids))
    if t == T_PAGE_METADATA:
        return "%d x %d" % (ch.width, ch.height)
    return ""


def main(argv):
    if len(argv) >= 2 and argv[0] == "dump":
        for p in argv[1:]:
            dump(p)
        return 0
    if len(argv) >= 2 and argv[0] == "page":
        mode = argv[2] if len(argv) > 2 else "salvage"
        pr = recover_page(argv[1], mode)
        print(json.dumps({"elements": pr.page.ids(), "generation": pr.generation,
                          "nextSequence": pr.next_sequence, "refused": pr.refused,
                          "findingKinds": pr.finding_kinds(),
                          "findings": ["%s: %r" % (n, f) for n, f in pr.findings]}, indent=2))
        return 0
    if len(argv) >= 1 and argv[0] == "fsck":
        return fsck_main(argv[1:])
    if len(argv) == 1:
        if not os.path.isfile(os.path.join(argv[0], "manifest.json")):
            print("no manifest.json in %s" % argv[0], file=sys.stderr)
            return 2
        return 0 if run_conformance(argv[0]) else 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
