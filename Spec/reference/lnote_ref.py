#!/usr/bin/env python3
"""Independent reader of the LNote on-disk format, version 1.

Written from Spec/format.md alone (standard library only). Requirement IDs from the
spec are cited in comments. Where the spec leaves a choice open, the choice made here
is marked "ASSUMPTION (Qn)" and the question is written down in SPEC-QUESTIONS.md.

Usage:
    python3 lnote_ref.py VECTORS_DIR        run the conformance vectors (manifest.json)
    python3 lnote_ref.py dump FILE          print the header and frames of a journal/snapshot
    python3 lnote_ref.py page DIR [MODE]    recover a page from a folder of page files
"""

import json
import math
import os
import re
import struct
import sys
import uuid as _uuid

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
KNOWN_CRITICAL = {1: "elementAppend", 2: "elementReplace", 3: "elementsTransform",
                  4: "elementsDelete", 5: "elementsReorder", 6: "pageMetadata"}

MODES = ("salvage", "prefix", "strict")

# Finding kinds that are information, not damage. J-012 (torn tails) and F-011
# (unknown ancillary types) call themselves "information".
# ASSUMPTION (Q13): missingElement / duplicateElement (P-006, "never an error") are NOT
# informational: they count in findingKinds but never stop prefix nor refuse strict.
INFO_KINDS = {"shortHeader", "zeroFill", "lengthPastEnd", "badTailFrame",
              "unknownAncillaryType"}
# Findings that never stop a prefix replay nor refuse a strict one.
BENIGN_KINDS = INFO_KINDS | {"missingElement", "duplicateElement"}


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
        """G-003: unsigned LEB128, at most 10 bytes, 10th byte 0x01 only, minimal.

        ASSUMPTION (Q1): G-003 allows a 10th byte of 0x00 but also forbids
        non-minimal encodings; a 10-byte varint ending in 0x00 is non-minimal, so it is
        rejected (the non-minimal rule wins).
        """
        result = 0
        for i in range(10):
            if self.pos >= self.end:
                raise DecodeError("truncated varint")
            b = self.buf[self.pos]
            self.pos += 1
            if i == 9 and b > 0x01:
                raise DecodeError("varint longer than 10 bytes or overflowing 64 bits")
            result |= (b & 0x7F) << (7 * i)
            if not b & 0x80:
                if b == 0 and i > 0:
                    raise DecodeError("non-minimal varint")
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

    def __init__(self, kind, offset, nbytes, torn_tail=False, missing=None, note=None):
        self.kind = kind
        self.offset = offset
        self.bytes = nbytes
        self.torn_tail = torn_tail
        self.missing = missing      # (first, end) of missing sequence numbers, J-015
        self.note = note

    @property
    def informational(self):
        return self.torn_tail or self.kind in INFO_KINDS

    def to_json(self):
        # ASSUMPTION (Q25): for a torn tail, `kind` is the J-012 reason.
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


def decode_points(r, count, has_angles=False):
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
    points = []
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


def decode_element(r):
    """6.3 element; E-010 validity."""
    kind = r.u8()
    eid = r.uuid()
    if kind == 1:
        ink = r.string()
        ink_len = len(ink.encode("utf-8"))
        if ink_len < 1 or ink_len > INK_TYPE_BYTES_MAX:
            raise DecodeError("ink type of %d bytes" % ink_len)
        color = tuple(r.take(4))
        width = r.varint()
        flags = r.u8()
        if flags & ~0x03:                                # G-007 / E-010
            raise DecodeError("stroke flag bits 0x%02x must be zero" % (flags & ~0x03))
        transform = decode_transform(r) if flags & 1 else None
        has_angles = bool(flags & 2)
        count = r.varint()
        points = decode_points(r, count, has_angles)
        return Element(1, eid, ink=ink, color=color, width=width, has_angles=has_angles,
                       transform=transform, points=points)
    if kind == 2:
        asset = r.uuid()
        x = r.svarint()
        y = r.svarint()
        w = r.varint()
        h = r.varint()
        flags = r.u8()
        if flags & ~0x01:
            raise DecodeError("image flag bits 0x%02x must be zero" % (flags & ~0x01))
        transform = decode_transform(r) if flags & 1 else None
        return Element(2, eid, asset=asset, x=x, y=y, width=w, height=h, transform=transform)
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


def decode_change(ftype, r):
    """Decode the body (after `sequence`) of a known critical frame type (3.1, 6.4).
    F-012: the payload must be exhausted afterwards."""
    if ftype == T_ELEMENT_APPEND:
        c = Change(ftype, element=decode_element(r))
    elif ftype == T_ELEMENT_REPLACE:
        target = r.uuid()
        n = _read_count(r, 17)       # an element is at least kind + id
        c = Change(ftype, target=target, elements=[decode_element(r) for _ in range(n)])
    elif ftype == T_ELEMENTS_TRANSFORM:
        n = _read_count(r, 16 + 24)
        c = Change(ftype, items=[(r.uuid(), decode_transform(r)) for _ in range(n)])
    elif ftype == T_ELEMENTS_DELETE:
        n = _read_count(r, 16)
        c = Change(ftype, ids=[r.uuid() for _ in range(n)])
    elif ftype == T_ELEMENTS_REORDER:
        index = r.varint()
        n = _read_count(r, 16)
        c = Change(ftype, index=index, ids=[r.uuid() for _ in range(n)])
    elif ftype == T_PAGE_METADATA:
        w = r.varint()
        h = r.varint()
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
        """Apply one change (E-020..E-027). Returns the set of finding kinds
        (missingElement / duplicateElement, P-006) the change produced.

        ASSUMPTION (Q14): one finding per change and kind, not one per listed id."""
        kinds = set()
        t = change.type
        if t == T_ELEMENT_APPEND:                       # E-020
            if self._index(change.element.id) is not None:
                kinds.add("duplicateElement")
            else:
                self.elements.append(change.element)
        elif t == T_ELEMENT_REPLACE:                    # E-021
            i = self._index(change.target)
            if i is None:
                kinds.add("missingElement")
            else:
                present = {e.id for j, e in enumerate(self.elements) if j != i}
                frags = []
                for e in change.elements:
                    # "Fragments whose id already exists elsewhere are skipped."
                    # ASSUMPTION (Q15): a fragment may reuse the target's id; a second
                    # fragment with the same id as an earlier one is also a duplicate.
                    if e.id in present:
                        kinds.add("duplicateElement")
                        continue
                    present.add(e.id)
                    frags.append(e)
                self.elements[i:i + 1] = frags
        elif t == T_ELEMENTS_TRANSFORM:                 # E-022: set, not compose
            for eid, tr in change.items:
                i = self._index(eid)
                if i is None:
                    kinds.add("missingElement")
                else:
                    self.elements[i].fields["transform"] = tr
        elif t == T_ELEMENTS_DELETE:                    # E-023
            for eid in change.ids:
                i = self._index(eid)
                if i is None:
                    kinds.add("missingElement")
                else:
                    del self.elements[i]
        elif t == T_ELEMENTS_REORDER:                   # E-024
            moved, seen = [], set()
            for eid in change.ids:
                if eid in seen:     # ASSUMPTION (Q16): repeated ids count once
                    continue
                seen.add(eid)
                i = self._index(eid)
                if i is None:
                    kinds.add("missingElement")
                else:
                    moved.append(self.elements.pop(i))
            at = min(change.index, len(self.elements))
            self.elements[at:at] = moved
        elif t == T_PAGE_METADATA:                      # E-025
            self.width, self.height = change.width, change.height
        return kinds


# --------------------------------------------------------------------------------------
# Frames (section 3)
# --------------------------------------------------------------------------------------

def frame_crc(salt, length_bytes, ftype, payload):
    """F-003: crc32c(salt_le8 ++ length_le4 ++ type_u8 ++ payload)."""
    c = crc32c(struct.pack("<Q", salt) + bytes(length_bytes) + bytes([ftype]))
    return crc32c_extend(c, payload)


def probe_frame(buf, o, salt, window=None):
    """F-005: is there a valid frame at offset o? Checks run cheapest first (J-014).

    Returns (reason, length, type, sequence): reason is None for a valid frame, else
    'short' (o + 9 > n), 'badType', 'badLength' or 'badCRC' (or 'window' when a
    sequence window (lo, hi) is given and the sequence falls outside it; the CRC is then
    not computed)."""
    n = len(buf)
    if o + FRAME_HEADER_SIZE > n:                                    # (1)
        return ("short", None, None, None)
    length, stored = struct.unpack_from("<II", buf, o)
    ftype = buf[o + 8]
    if ftype == 0:                                                   # (2) F-004
        return ("badType", length, ftype, None)
    if length < 8 or length > PAYLOAD_BYTES_MAX:                     # (3) F-001/F-002
        return ("badLength", length, ftype, None)
    if o + FRAME_HEADER_SIZE + length > n:                           # (4)
        return ("badLength", length, ftype, None)
    seq = struct.unpack_from("<Q", buf, o + FRAME_HEADER_SIZE)[0]
    if window is not None and not (window[0] <= seq < window[1]):
        return ("window", length, ftype, seq)
    payload = buf[o + FRAME_HEADER_SIZE:o + FRAME_HEADER_SIZE + length]
    if frame_crc(salt, buf[o:o + 4], ftype, payload) != stored:      # (5) F-003
        return ("badCRC", length, ftype, seq)
    return (None, length, ftype, seq)


def classify_torn_tail(buf, o):
    """J-012 reasons, tested in the order the spec lists them.
    ASSUMPTION (Q4): order shortHeader, zeroFill, lengthPastEnd, badTailFrame."""
    n = len(buf)
    if n - o < FRAME_HEADER_SIZE:
        return "shortHeader"
    if not any(buf[o:]):
        return "zeroFill"
    length = struct.unpack_from("<I", buf, o)[0]
    if o + FRAME_HEADER_SIZE + length > n:
        return "lengthPastEnd"
    return "badTailFrame"


def resync(buf, start, salt, expected):
    """J-014: the first p >= start where a valid frame with
    expected <= sequence < expected + 2^24 starts, or None."""
    n = len(buf)
    window = (expected, expected + RESYNC_SEQUENCE_WINDOW)
    for p in range(start, n - FRAME_HEADER_SIZE - 8 + 1):
        if buf[p + 8] == 0:                 # cheapest filter first (type)
            continue
        reason, length, ftype, seq = probe_frame(buf, p, salt, window)
        if reason is None:
            return p, seq
    return None


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


def scan_frames(buf, start, salt, expected):
    """Sections 4.2 / J-010..J-016: walk the frames of a file independent of the mode.

    Returns (events, valid_end) where events, in file order, are
        ('frame', ScannedFrame)       a frame accepted with sequence bookkeeping
        ('anomaly', Finding)          corruption / gap / regression (J-015, J-016)
        ('torn', Finding)             the torn tail (J-012), always last
    and valid_end is where a writer would truncate (J-013): the start of the torn tail,
    or the file size."""
    n = len(buf)
    events = []
    o = start
    while o < n:                                                      # J-011 clean end
        reason, length, ftype, seq = probe_frame(buf, o, salt)
        if reason is None and seq == expected:                        # J-010
            fr = ScannedFrame(o, length, ftype, seq)
            events.append(("frame", fr))
            expected += 1
            o = fr.end
            continue
        if reason is None and seq > expected:
            # J-016: a valid frame starting where the previous one ended, with a larger
            # sequence, is a sequenceGap; the frame itself is kept.
            # ASSUMPTION (Q6): offset = the frame's offset, bytes = 0 (nothing dropped);
            # the resync window does not apply here (the frame is at a boundary).
            events.append(("anomaly", Finding("sequenceGap", o, 0, missing=(expected, seq))))
            fr = ScannedFrame(o, length, ftype, seq)
            events.append(("frame", fr))
            expected = seq + 1
            o = fr.end
            continue
        # No clean frame at o: resynchronize (J-014).
        found = resync(buf, o + 1, salt, expected)
        if found is None:
            # J-012: torn tail. ASSUMPTION (Q5): this includes a valid frame whose
            # sequence is a regression when nothing valid follows it.
            kind = classify_torn_tail(buf, o)
            events.append(("torn", Finding(kind, o, n - o, torn_tail=True)))
            return events, o
        p, pseq = found
        if reason is None:
            # A valid frame whose sequence is smaller than expected (J-016).
            kind = "sequenceRegression"
        else:
            # J-015 reason of the stretch. ASSUMPTION (Q3): the reason why the frame at
            # o is not valid, tested in F-005 order (badType, badLength, badCRC).
            kind = reason
        missing = (expected, pseq) if pseq > expected else None
        events.append(("anomaly", Finding(kind, o, p - o, missing=missing)))
        o = p
        # The frame at p validates with a sequence in the window: accept it (the
        # missing sequences were reported with the stretch).
        _, length, ftype, seq = probe_frame(buf, p, salt)
        fr = ScannedFrame(p, length, ftype, seq)
        events.append(("frame", fr))
        expected = seq + 1
        o = fr.end
    return events, n


class ReplayResult:
    def __init__(self):
        self.frames = []          # (ScannedFrame, Change or None) of known critical types
        self.findings = []
        self.valid_end = None
        self.refused = False
        self.stopped = False
        self.next_sequence = None


def replay_frames(buf, start, salt, expected, mode, on_change=None, allowed=None,
                  skip_below=0):
    """Section 4.3: apply the mode to the scanned events.

    on_change(frame, change) is called for each accepted frame of a known critical type
    with a valid body and returns the finding kinds it produced (P-006).
    allowed: the critical types this file may hold (snapshots, S-002); others are
    treated as unknown critical types.
    skip_below: P-004, frames with a smaller sequence are already absorbed: they count
    for the sequence bookkeeping but are neither decoded nor applied (so an absorbed
    frame of an unknown critical type does not stop replay -- ASSUMPTION (Q24)).

    ASSUMPTIONS (Q7, Q8, Q9, Q10):
      * validEnd is a property of the file (J-013): the start of the torn tail, or the
        file size, whatever the mode.
      * When replay stops (prefix: first non-benign anomaly; any mode: unknown critical
        type; strict: refusal) the stopping finding covers [o, validEnd) -- "what
        follows is reported as dropped" -- and no later finding is reported except the
        torn tail (information about the file).
      * A frame with a known critical type whose body is invalid (badBody, F-012/E-010)
        is accepted (its sequence counts, it is listed in `frames`) but not applied; it
        is an anomaly: prefix stops, strict refuses.
      * missingElement / duplicateElement never stop or refuse.
    """
    res = ReplayResult()
    events, valid_end = scan_frames(buf, start, salt, expected)
    res.valid_end = valid_end
    res.next_sequence = expected
    torn = [f for k, f in events if k == "torn"]

    def stop(f):
        f.bytes = valid_end - f.offset
        res.findings.append(f)
        res.stopped = True
        if mode == "strict":
            res.refused = True
        res.findings.extend(torn)

    for kind, item in events:
        if kind == "torn":
            res.findings.append(item)
            break
        if kind == "anomaly":
            if mode == "salvage":
                res.findings.append(item)
                continue
            stop(item)                                               # J-021 / J-022
            return res
        fr = item
        if fr.sequence < skip_below:                                 # P-004
            res.next_sequence = fr.sequence + 1
            continue
        if fr.type >= 0x80:
            res.next_sequence = fr.sequence + 1                      # F-011: it counts
            if fr.type != T_PADDING:
                res.findings.append(Finding("unknownAncillaryType", fr.offset, fr.size,
                                            note="type 0x%02x" % fr.type))
            continue
        if fr.type not in KNOWN_CRITICAL or (allowed is not None and fr.type not in allowed):
            # F-010
            stop(Finding("unknownCriticalType", fr.offset, fr.size,
                         note="type 0x%02x" % fr.type))
            return res
        res.next_sequence = fr.sequence + 1
        r = Reader(buf, fr.offset + FRAME_HEADER_SIZE + 8, fr.end)
        try:
            change = decode_change(fr.type, r)
        except DecodeError as e:
            res.frames.append((fr, None))
            f = Finding("badBody", fr.offset, fr.size, note=str(e))
            if mode == "salvage":
                res.findings.append(f)
                continue
            stop(f)
            return res
        res.frames.append((fr, change))
        if on_change is not None:
            for k in sorted(on_change(fr, change)):
                res.findings.append(Finding(k, fr.offset, fr.size))
    return res


# --------------------------------------------------------------------------------------
# File headers (4.1, 7)
# --------------------------------------------------------------------------------------

class FileHeader:
    def __init__(self, data, magic):
        self.present = len(data) >= FILE_HEADER_SIZE
        self.problems = []
        self.magic_ok = False
        if not self.present:
            self.problems.append("file shorter than the 64-byte header")
            return
        (m, self.version, self.header_size, self.flags) = struct.unpack_from("<8sHHI", data, 0)
        self.page_id = bytes(data[16:32])
        (self.f32_, self.salt, self.f48_) = struct.unpack_from("<QQQ", data, 32)
        (self.f56_, self.header_crc) = struct.unpack_from("<II", data, 56)
        self.magic_ok = m == magic
        if not self.magic_ok:
            self.problems.append("magic")
        if self.version != 1:
            # README: "A reader rejects versions it does not know." ASSUMPTION (Q2): an
            # unknown version is just one more reason for an invalid header (badHeader).
            self.problems.append("version %d" % self.version)
        if self.header_size != 64:
            self.problems.append("headerSize %d" % self.header_size)
        if self.flags != 0:
            self.problems.append("flags")
        if crc32c(data[0:60]) != self.header_crc:
            self.problems.append("headerCRC")

    @property
    def valid(self):
        return not self.problems


class JournalHeader(FileHeader):
    """J-002."""

    def __init__(self, data):
        super().__init__(data, JOURNAL_MAGIC)
        if not self.present:
            return
        self.base_generation = self.f32_
        self.first_sequence = self.f48_
        if self.f56_ != 0:
            self.problems.append("reserved")
        if self.first_sequence < 1:
            self.problems.append("firstSequence 0")


class SnapshotHeader(FileHeader):
    """S-001."""

    def __init__(self, data):
        super().__init__(data, SNAPSHOT_MAGIC)
        if not self.present:
            return
        self.generation = self.f32_
        self.next_sequence = self.f48_
        self.element_count = self.f56_
        if self.generation < 1:
            self.problems.append("generation 0")
        if self.next_sequence < 1:
            self.problems.append("nextSequence 0")


# --------------------------------------------------------------------------------------
# Journal reading (section 4)
# --------------------------------------------------------------------------------------

class JournalResult:
    def __init__(self):
        self.header = None
        self.header_valid = False
        self.frames = []
        self.findings = []
        self.valid_end = 0
        self.refused = False
        self.stopped = False
        self.next_sequence = None
        self.replayed = False     # whether any frame was read at all


def read_journal(data, mode="salvage", on_change=None, page_id=None, skip_below=0):
    """Read one journal file (section 4). page_id (16 bytes) enables J-005."""
    assert mode in MODES
    res = JournalResult()
    h = JournalHeader(data)
    res.header = h
    res.header_valid = h.valid
    if page_id is not None and h.present and h.page_id != page_id:
        # J-005: not replayed, in any mode.
        res.findings.append(Finding("foreignJournal", 0, len(data)))
        res.stopped = True
        res.refused = mode == "strict"
        return res
    if not h.valid:
        # J-023: badHeader in every mode. ASSUMPTION (Q11): offset 0, bytes = the
        # header (64, or the file size if shorter).
        res.findings.append(Finding("badHeader", 0, min(FILE_HEADER_SIZE, len(data)),
                                    note=", ".join(h.problems)))
        if mode != "salvage" or not h.present:
            res.refused = mode == "strict"
            res.stopped = True
            return res
        # Salvage: try the stored salt and first sequence.
    rr = replay_frames(data, FILE_HEADER_SIZE, h.salt, h.first_sequence, mode, on_change,
                       skip_below=skip_below)
    res.replayed = True
    res.frames = rr.frames
    res.findings.extend(rr.findings)
    res.valid_end = rr.valid_end
    res.refused = rr.refused
    res.stopped = rr.stopped
    res.next_sequence = rr.next_sequence
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
        self.generation = None
        self.next_sequence = None
        self.usable = False


def read_snapshot(data, mode="salvage", page_id=None):
    """Section 7. ASSUMPTION (Q17): a snapshot is read with the salvage rules (S-003)
    in salvage and prefix mode; strict refuses on any non-benign finding.
    ASSUMPTION (Q18): a damaged snapshot header is salvaged like J-023 (stored salt,
    generation, nextSequence) outside strict mode."""
    assert mode in MODES
    res = SnapshotResult()
    h = SnapshotHeader(data)
    res.header = h
    res.header_valid = h.valid
    if page_id is not None and h.present and h.page_id != page_id:      # S-004
        res.findings.append(Finding("foreignSnapshot", 0, len(data)))
        res.refused = mode == "strict"
        return res
    if not h.valid:
        res.findings.append(Finding("badHeader", 0, min(FILE_HEADER_SIZE, len(data)),
                                    note=", ".join(h.problems)))
        if mode == "strict" or not h.present:
            res.refused = mode == "strict"
            return res
    res.generation = h.generation
    res.next_sequence = h.next_sequence
    page = res.page
    # S-002: only pageMetadata and elementAppend. ASSUMPTION (Q19): any other known
    # critical type in a snapshot is treated like an unknown critical type (stop).
    rr = replay_frames(data, FILE_HEADER_SIZE, h.salt, 1, "salvage",
                       lambda fr, ch: page.apply(ch),
                       allowed=(T_PAGE_METADATA, T_ELEMENT_APPEND))
    findings = list(rr.findings)
    if len(page.elements) < h.element_count:                           # S-003
        # ASSUMPTION (Q20): offset = the file size, bytes = 0.
        findings.append(Finding("missingElements", len(data), 0,
                                note="%d of %d" % (len(page.elements), h.element_count)))
    res.findings.extend(findings)
    res.usable = True
    if mode == "strict" and any(f.kind not in BENIGN_KINDS for f in res.findings):
        res.refused = True
    return res


# --------------------------------------------------------------------------------------
# Page recovery (section 5)
# --------------------------------------------------------------------------------------

UUID_RE = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
JOURNAL_NAME_RE = re.compile(r"^(%s)\.(0|[1-9][0-9]*)\.journal$" % UUID_RE)   # J-001
SNAPSHOT_NAME_RE = re.compile(r"^(%s)\.content$" % UUID_RE)


class PageResult:
    def __init__(self):
        self.page = Page()
        self.generation = 0
        self.next_sequence = 1
        self.refused = False
        self.findings = []        # (file name, Finding)
        self.retained = []        # journals with base < G (P-003)

    def finding_kinds(self):
        return sorted({f.kind for _, f in self.findings if not f.informational})


def recover_page(pages_dir, mode="salvage", page_id_text=None):
    """P-001..P-006: recover one page from a folder holding its snapshot and journals."""
    assert mode in MODES
    res = PageResult()
    names = sorted(os.listdir(pages_dir))
    snaps, journals = {}, {}
    for name in names:
        m = SNAPSHOT_NAME_RE.match(name)
        if m:
            snaps[m.group(1)] = name
            continue
        m = JOURNAL_NAME_RE.match(name)
        if m:
            journals.setdefault(m.group(1), []).append((int(m.group(2)), name))
        # Anything else (e.g. <page>.content.tmp left by P-011) is ignored.
    if page_id_text is None:
        ids = sorted(set(snaps) | set(journals))
        if not ids:
            return res                                                  # P-001
        page_id_text = ids[0]
    pid = uuid_bytes(page_id_text)

    def read(name):
        with open(os.path.join(pages_dir, name), "rb") as f:
            return f.read()

    # Snapshot (section 7): G and S.
    G, S = 0, 1                                                         # P-001
    page = res.page
    if page_id_text in snaps:
        name = snaps[page_id_text]
        sr = read_snapshot(read(name), mode, pid)
        res.findings += [(name, f) for f in sr.findings]
        if sr.refused:
            res.refused = True
            return res
        if sr.usable:
            G, S = sr.generation, sr.next_sequence
            res.page = page = sr.page
    res.generation = G
    expected = S                                                        # P-004

    def on_change(fr, change):
        return page.apply(change)

    expected_box = [expected]
    for base, name in sorted(journals.get(page_id_text, [])):
        if base < G:                                                    # P-003 retained
            res.retained.append(name)
            continue
        data = read(name)
        h = JournalHeader(data)
        if h.present and h.page_id == pid and h.first_sequence > expected_box[0] and \
                (h.valid or mode == "salvage"):
            # P-004: a sequence missing between two journals (or between the snapshot
            # and the first journal) is a sequenceGap.
            # ASSUMPTION (Q12): it is reported at offset 64 of the later journal with
            # bytes 0; the journal's first sequence then becomes the expected one.
            f = Finding("sequenceGap", FILE_HEADER_SIZE, 0,
                        missing=(expected_box[0], h.first_sequence))
            res.findings.append((name, f))
            if mode != "salvage":
                res.refused = mode == "strict"
                break
            expected_box[0] = h.first_sequence
        # P-004: frames below the expected sequence are absorbed (or already applied
        # from the previous journal) and skipped.
        jr = read_journal(data, mode, on_change, pid, skip_below=expected_box[0])
        res.findings += [(name, f) for f in jr.findings]
        if jr.refused:
            res.refused = True
            break
        if jr.next_sequence is not None:
            expected_box[0] = max(expected_box[0], jr.next_sequence)
        if jr.stopped:
            break
    res.next_sequence = expected_box[0]
    return res


# --------------------------------------------------------------------------------------
# Conformance runner (Spec/README.md)
# --------------------------------------------------------------------------------------

def _journal_actual(data, mode, entry, vectors_dir):
    """The `expect` object for a journal vector, computed."""
    page = Page()
    skip_below = 0
    rf = entry.get("replayFrom", entry.get("expect", {}).get("replayFrom"))
    # ASSUMPTION (Q21): `replayFrom` is not defined by the README; accepted here as a
    # snapshot file name (relative to the vectors dir) or a number (frames with a
    # smaller sequence are skipped, as P-004).
    if isinstance(rf, str):
        with open(os.path.join(vectors_dir, rf), "rb") as f:
            sr = read_snapshot(f.read(), "salvage")
        page = sr.page
        skip_below = sr.next_sequence or 0
    elif isinstance(rf, dict):
        skip_below = rf.get("nextSequence", 0)
    elif isinstance(rf, int):
        skip_below = rf

    def on_change(fr, change):
        return page.apply(change)

    jr = read_journal(data, mode, on_change, skip_below=skip_below)
    frames = [{"sequence": fr.sequence, "type": fr.type, "offset": fr.offset}
              for fr, _ in jr.frames]
    return {
        "refused": jr.refused,
        "headerValid": jr.header_valid,
        "frames": [] if jr.refused else frames,
        "validEnd": jr.valid_end,
        "findings": [f.to_json() for f in jr.findings],
        "elements": [] if jr.refused else page.ids(),
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
    }


def _points_actual(data, entry):
    exp = entry.get("expect", {})
    count = exp.get("count", entry.get("count"))
    has_angles = exp.get("hasAngles", entry.get("hasAngles", False))
    # ASSUMPTION (Q22): the file holds exactly the points; trailing bytes are an error
    # (as F-012 would make them inside a frame).
    try:
        r = Reader(data)
        pts = decode_points(r, count, has_angles)
        if r.remaining():
            raise DecodeError("%d trailing bytes" % r.remaining())
        return {"error": False, "points": [list(p) for p in pts]}
    except DecodeError as e:
        return {"error": True, "reason": str(e)}


def _page_actual(folder, mode):
    # ASSUMPTION (Q23): the vector folder either holds a `pages/` subfolder or the
    # page files directly.
    pages = os.path.join(folder, "pages")
    pr = recover_page(pages if os.path.isdir(pages) else folder, mode)
    return {
        "refused": pr.refused,
        "elements": [] if pr.refused else pr.page.ids(),
        "nextSequence": pr.next_sequence,
        "generation": pr.generation,
        "findingKinds": pr.finding_kinds(),
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
        return "skip", "package vectors need fsck"
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


def run_conformance(vectors_dir, out=sys.stdout):
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

def dump(path, mode="salvage", out=sys.stdout):
    with open(path, "rb") as f:
        data = f.read()
    magic = data[:8]
    if magic == SNAPSHOT_MAGIC:
        h = SnapshotHeader(data)
        print("snapshot %s: %d bytes, header %s" % (path, len(data),
              "valid" if h.valid else "INVALID (%s)" % ", ".join(h.problems)), file=out)
        if h.present:
            print("  pageID %s generation %d salt 0x%016x nextSequence %d elementCount %d"
                  % (uuid_text(h.page_id), h.generation, h.salt, h.next_sequence,
                     h.element_count), file=out)
        expected = 1
    else:
        h = JournalHeader(data)
        print("journal %s: %d bytes, header %s" % (path, len(data),
              "valid" if h.valid else "INVALID (%s)" % ", ".join(h.problems)), file=out)
        if not h.present:
            return
        print("  pageID %s baseGeneration %d salt 0x%016x firstSequence %d"
              % (uuid_text(h.page_id), h.base_generation, h.salt, h.first_sequence), file=out)
        expected = h.first_sequence
    if not h.present:
        return
    events, valid_end = scan_frames(data, FILE_HEADER_SIZE, h.salt, expected)
    for kind, item in events:
        if kind == "frame":
            name = KNOWN_CRITICAL.get(item.type, "padding" if item.type == T_PADDING else
                                      "unknown-%s" % ("ancillary" if item.type >= 0x80 else "critical"))
            desc = ""
            if item.type in KNOWN_CRITICAL:
                try:
                    ch = decode_change(item.type, Reader(data, item.offset + 17, item.end))
                    desc = _describe(ch)
                except DecodeError as e:
                    desc = "BAD BODY: %s" % e
            print("  @%-8d seq %-6d len %-7d type 0x%02x %-17s %s"
                  % (item.offset, item.sequence, item.length, item.type, name, desc), file=out)
        else:
            print("  @%-8d %s %s" % (item.offset, "TORN" if kind == "torn" else "ANOMALY", item),
                  file=out)
    print("  validEnd %d" % valid_end, file=out)


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
    if len(argv) == 1:
        if not os.path.isfile(os.path.join(argv[0], "manifest.json")):
            print("no manifest.json in %s" % argv[0], file=sys.stderr)
            return 2
        return 0 if run_conformance(argv[0]) else 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
