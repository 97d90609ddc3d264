"""Tests for lnote_ref.py. The vectors are built by a small encoder written from
Spec/format.md (below), independent of the reader under test.

    python3 -m unittest discover -s Spec/reference
"""

import io
import json
import math
import os
import struct
import sys
import tempfile
import unittest
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lnote_ref as L  # noqa: E402


# ======================================================================================
# Encoder (from the spec text)
# ======================================================================================

def varint(n):
    """G-003/G-004: minimal unsigned LEB128."""
    assert 0 <= n < 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n):
    """G-005: (n << 1) ^ (n >> 63) on 64-bit two's complement."""
    assert -(1 << 63) <= n < 1 << 63
    return ((n << 1) ^ (n >> 63)) & ((1 << 64) - 1)


def svarint(n):
    return varint(zigzag(n))


def string(s):
    b = s.encode("utf-8") if isinstance(s, str) else s
    return varint(len(b)) + b


def U(text):
    return uuid.UUID(text).bytes


PAGE = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
OTHER_PAGE = "11111111-2222-3333-4444-555555555555"
SALT = 0x0123456789ABCDEF
SNAP_SALT = 0x1122334455667788


def eid(n):
    """A deterministic element id."""
    return "%08x-0000-4000-8000-%012x" % (n, n)


def crc32c(data):
    # Bitwise, exactly the pseudocode of section 2 (the reader is table-driven).
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def frame(salt, ftype, seq, body=b"", crc=None, length=None):
    """Section 3 frame; F-003 CRC over salt ++ length ++ type ++ payload."""
    payload = struct.pack("<Q", seq) + body
    ln = len(payload) if length is None else length
    lb = struct.pack("<I", ln)
    c = crc32c(struct.pack("<Q", salt) + lb + bytes([ftype]) + payload) if crc is None else crc
    return lb + struct.pack("<I", c) + bytes([ftype]) + payload


def journal_header(page=PAGE, base=0, salt=SALT, first=1, magic=b"LNOTEJNL", version=1,
                   header_size=64, flags=0, reserved=0, crc=None):
    """4.1, 64 bytes."""
    h = (magic + struct.pack("<HHI", version, header_size, flags) + U(page)
         + struct.pack("<QQQI", base, salt, first, reserved))
    return h + struct.pack("<I", crc32c(h) if crc is None else crc)


def snapshot_header(page=PAGE, generation=1, salt=SNAP_SALT, next_seq=1, count=0,
                    flags=0, crc=None):
    """Section 7, 64 bytes."""
    h = (b"LNOTESNP" + struct.pack("<HHI", 1, 64, flags) + U(page)
         + struct.pack("<QQQI", generation, salt, next_seq, count))
    return h + struct.pack("<I", crc32c(h) if crc is None else crc)


def encode_points(points, has_angles=False):
    """E-001: first/second-order deltas."""
    nf = 7 if has_angles else 5
    second = [True, True, False, False, True, False, False]
    out = bytearray()
    for i, p in enumerate(points):
        assert len(p) == nf
        for f in range(nf):
            v = p[f]
            if i == 0:
                out += svarint(v) if f in (0, 1) else varint(v)
            elif i == 1 or not second[f]:
                out += svarint(v - points[i - 1][f])
            else:
                out += svarint((v - points[i - 1][f]) - (points[i - 1][f] - points[i - 2][f]))
    return bytes(out)


def transform_bytes(t):
    return struct.pack("<6f", *t)


def stroke(id_text, points=((0, 0, 10, 500, 0),), ink="pen", color=(0, 0, 0, 255),
           width=10, transform=None, angles=False, flags_extra=0, count=None, raw_points=None):
    """6.3 stroke element."""
    flags = (1 if transform else 0) | (2 if angles else 0) | flags_extra
    b = bytes([1]) + U(id_text) + string(ink) + bytes(color) + varint(width) + bytes([flags])
    if transform:
        b += transform_bytes(transform)
    b += varint(len(points) if count is None else count)
    b += encode_points(list(points), angles) if raw_points is None else raw_points
    return b


def image(id_text, asset=OTHER_PAGE, x=0, y=0, w=100, h=50, transform=None, flags_extra=0):
    flags = (1 if transform else 0) | flags_extra
    b = (bytes([2]) + U(id_text) + U(asset) + svarint(x) + svarint(y) + varint(w) + varint(h)
         + bytes([flags]))
    if transform:
        b += transform_bytes(transform)
    return b


# Change bodies (3.1 / 6.4)
def b_append(elem):
    return elem


def b_replace(target, elems):
    return U(target) + varint(len(elems)) + b"".join(elems)


def b_transform(items):
    return varint(len(items)) + b"".join(U(i) + transform_bytes(t) for i, t in items)


def b_delete(ids):
    return varint(len(ids)) + b"".join(U(i) for i in ids)


def b_reorder(index, ids):
    return varint(index) + varint(len(ids)) + b"".join(U(i) for i in ids)


def b_metadata(w=6120, h=7920, flags=0):
    return varint(w) + varint(h) + bytes([flags])


def appends(salt, first, ids):
    """A run of elementAppend frames with consecutive sequences."""
    return [frame(salt, 1, first + i, stroke(e)) for i, e in enumerate(ids)]


def journal(frames, **hdr):
    return journal_header(**hdr) + b"".join(frames)


def offsets(frames, start=64):
    out, o = [], start
    for f in frames:
        out.append(o)
        o += len(f)
    return out


def fj(kind, offset, nbytes, torn=False):
    return {"kind": kind, "offset": offset, "bytes": nbytes, "tornTail": torn}


def read(data, mode="salvage", **kw):
    """Journal read as the conformance runner sees it."""
    return L._journal_actual(data, mode, kw, ".")


IDS = [eid(i) for i in range(1, 10)]


# ======================================================================================
# Section 1-2: primitives
# ======================================================================================

class TestCRC(unittest.TestCase):
    def test_check_values_C002(self):
        self.assertEqual(L.crc32c(b"123456789"), 0xE3069283)
        self.assertEqual(L.crc32c(bytes(32)), 0x8A9136AA)
        self.assertEqual(L.crc32c(b"\xff" * 32), 0x62A8AB43)
        self.assertEqual(L.crc32c(bytes(range(32))), 0x46DD794E)
        self.assertEqual(L.crc32c(bytes(range(31, -1, -1))), 0x113FDB5C)
        self.assertEqual(L.crc32c(b""), 0)

    def test_encoder_crc_agrees(self):
        self.assertEqual(crc32c(b"123456789"), 0xE3069283)

    def test_extend(self):
        a, b = b"hello ", b"world"
        self.assertEqual(L.crc32c_extend(L.crc32c(a), b), L.crc32c(a + b))


class TestVarint(unittest.TestCase):
    def dec(self, b):
        r = L.Reader(b)
        v = r.varint()
        self.assertEqual(r.remaining(), 0)
        return v

    def test_round_trip(self):
        for n in [0, 1, 127, 128, 300, 16383, 16384, 2**32, 2**63 - 1, 2**63, 2**64 - 1]:
            self.assertEqual(self.dec(varint(n)), n)

    def test_ten_byte_max_G003(self):
        self.assertEqual(len(varint(2**64 - 1)), 10)
        self.assertEqual(varint(2**64 - 1)[-1], 0x01)
        self.assertEqual(varint(2**63)[-1], 0x01)

    def test_tenth_byte_too_big(self):
        with self.assertRaises(L.DecodeError):
            self.dec(b"\xff" * 9 + b"\x02")      # overflows 64 bits

    def test_eleven_bytes(self):
        with self.assertRaises(L.DecodeError):
            self.dec(b"\x80" * 10 + b"\x01")

    def test_non_minimal(self):
        for b in [b"\x80\x00", b"\x81\x00", b"\xff\x80\x00", b"\x80" * 9 + b"\x00"]:
            with self.assertRaises(L.DecodeError, msg=b.hex()):
                self.dec(b)

    def test_truncated(self):
        with self.assertRaises(L.DecodeError):
            self.dec(b"\x80")

    def test_zigzag_G005(self):
        self.assertEqual([zigzag(n) for n in (0, -1, 1, -2)], [0, 1, 2, 3])
        for n in [0, -1, 1, -2, 2**31, -2**31, 2**63 - 1, -2**63]:
            self.assertEqual(L.Reader(svarint(n)).svarint(), n)

    def test_uuid_order_G002(self):
        b = L.Reader(U("00112233-4455-6677-8899-aabbccddeeff")).uuid()
        self.assertEqual(b, bytes.fromhex("00112233445566778899aabbccddeeff"))
        self.assertEqual(L.uuid_text(b), "00112233-4455-6677-8899-aabbccddeeff")

    def test_string_G006(self):
        self.assertEqual(L.Reader(string("pen")).string(), "pen")
        with self.assertRaises(L.DecodeError):
            L.Reader(varint(2) + b"\xc3\x28").string()


# ======================================================================================
# Sections 3-4: frames and journals
# ======================================================================================

class TestFrames(unittest.TestCase):
    def test_frame_valid_F005(self):
        f = frame(SALT, 1, 7, b"xyz")
        buf = bytes(3) + f
        reason, fr = L.probe_frame(buf, 3, SALT)
        self.assertIsNone(reason)
        self.assertEqual((fr.offset, fr.length, fr.type, fr.sequence, fr.size), (3, 11, 1, 7, 20))
        self.assertEqual(L.probe_frame(buf, 3, SALT + 1)[0], "badCRC")     # F-003 salt
        self.assertEqual(L.probe_frame(buf[:-1], 3, SALT)[0], "badLength")  # (4)
        self.assertEqual(L.probe_frame(buf[:8], 3, SALT)[0], "shortHeader")  # (1)

    def test_zero_type_never_valid_F004(self):
        f = frame(SALT, 0, 1, b"")
        self.assertEqual(L.probe_frame(f, 0, SALT)[0], "badType")

    def test_length_limits_F001_F002(self):
        self.assertEqual(L.probe_frame(frame(SALT, 1, 1, b"", length=7) + bytes(8), 0, SALT)[0],
                         "badLength")
        big = frame(SALT, 1, 1, b"", length=L.PAYLOAD_BYTES_MAX + 1)
        self.assertEqual(L.probe_frame(big, 0, SALT)[0], "badLength")

    def test_length_covered_by_crc(self):
        f = bytearray(frame(SALT, 1, 1, b"abcdef"))
        f[0] -= 1                                   # claims one byte less
        self.assertEqual(L.probe_frame(bytes(f), 0, SALT)[0], "badCRC")


class TestJournalClean(unittest.TestCase):
    def test_clean_J010_J011(self):
        fr = appends(SALT, 1, IDS[:3])
        data = journal(fr)
        a = read(data)
        self.assertTrue(a["headerValid"])
        self.assertFalse(a["refused"])
        self.assertEqual(a["frames"], [{"sequence": i + 1, "type": 1, "offset": o}
                                       for i, o in enumerate(offsets(fr))])
        self.assertEqual(a["findings"], [])
        self.assertEqual(a["validEnd"], len(data))
        self.assertEqual(a["elements"], IDS[:3])

    def test_header_only(self):
        data = journal([])
        for mode in L.MODES:
            a = read(data, mode)
            self.assertEqual((a["frames"], a["findings"], a["validEnd"], a["refused"]),
                             ([], [], 64, False))

    def test_first_sequence(self):
        fr = appends(SALT, 40, IDS[:2])
        a = read(journal(fr, first=40))
        self.assertEqual([f["sequence"] for f in a["frames"]], [40, 41])
        self.assertEqual(a["findings"], [])

    def test_all_change_types(self):
        fr = [frame(SALT, 6, 1, b_metadata())]
        fr += [frame(SALT, 1, 2 + i, stroke(e)) for i, e in enumerate(IDS[:4])]
        fr += [frame(SALT, 2, 6, b_replace(IDS[1], [stroke(IDS[5]), image(IDS[6])]))]
        fr += [frame(SALT, 3, 7, b_transform([(IDS[0], (1, 0, 0, 1, 5, 5))]))]
        fr += [frame(SALT, 4, 8, b_delete([IDS[2]]))]
        fr += [frame(SALT, 5, 9, b_reorder(0, [IDS[3]]))]
        a = read(journal(fr))
        self.assertEqual(a["findings"], [])
        self.assertEqual(a["elements"], [IDS[3], IDS[0], IDS[5], IDS[6]])


class TestTornTails(unittest.TestCase):
    """J-012: the four reasons; information in every mode."""

    def check(self, data, reason, at):
        for mode in L.MODES:
            a = read(data, mode)
            self.assertFalse(a["refused"], mode)
            self.assertEqual(a["findings"], [fj(reason, at, len(data) - at, True)], mode)
            self.assertEqual(a["validEnd"], at, mode)                  # J-013
            self.assertEqual(a["elements"], IDS[:2], mode)

    def setUp(self):
        self.fr = appends(SALT, 1, IDS[:3])
        self.good = journal(self.fr[:2])

    def test_short_header(self):
        self.check(self.good + self.fr[2][:5], "shortHeader", len(self.good))

    def test_short_zero_header_is_short_header(self):
        # Fewer than 9 bytes remain (also all zero): the first listed reason wins (J-012).
        self.check(self.good + bytes(4), "shortHeader", len(self.good))

    def test_zero_fill(self):
        self.check(self.good + bytes(4096), "zeroFill", len(self.good))

    def test_length_past_end(self):
        self.check(self.good + self.fr[2][:-3], "lengthPastEnd", len(self.good))

    def test_bad_tail_frame(self):
        bad = bytearray(self.fr[2])
        bad[-1] ^= 0xFF
        self.check(self.good + bytes(bad), "badTailFrame", len(self.good))

    def test_tail_frame_with_foreign_salt(self):
        self.check(self.good + frame(SALT ^ 1, 1, 3, stroke(IDS[2])), "badTailFrame",
                   len(self.good))

    def test_type_zero_tail_is_bad_tail_frame(self):
        # lengthPastEnd needs type != 0 (J-012 `tailReason`).
        b = bytearray(self.fr[2][:-3])
        b[8] = 0
        self.check(self.good + bytes(b), "badTailFrame", len(self.good))

    def test_oversized_length_tail_is_bad_tail_frame(self):
        b = bytearray(self.fr[2][:20])
        b[0:4] = struct.pack("<I", L.PAYLOAD_BYTES_MAX + 1)
        self.check(self.good + bytes(b), "badTailFrame", len(self.good))

    def test_tail_beyond_window_is_torn(self):
        # A valid frame at or beyond the window's end with nothing valid after it.
        self.check(self.good + frame(SALT, 1, 3 + (1 << 24), stroke(IDS[2])), "badTailFrame",
                   len(self.good))

    def test_regression_at_end_is_damage_J016(self):
        # A valid frame repeating sequence 2 at the end is a sequenceRegression, never a
        # torn tail; salvage drops it (validEnd before it), strict refuses.
        data = self.good + self.fr[1]
        o = len(self.good)
        s = read(data)
        self.assertEqual(s["findings"], [fj("sequenceRegression", o, len(self.fr[1]))])
        self.assertEqual((s["validEnd"], s["elements"], s["refused"]), (o, IDS[:2], False))
        p = read(data, "prefix")
        self.assertEqual(p["findings"], [fj("sequenceRegression", o, len(self.fr[1]))])
        st = read(data, "strict")
        self.assertEqual((st["refused"], st["frames"], st["elements"], st["validEnd"]),
                         (True, [], [], o))

    def test_tail_after_zeros_then_garbage(self):
        data = self.good + bytes(20) + b"\x01\x02"
        self.check(data, "badTailFrame", len(self.good))


class TestCorruption(unittest.TestCase):
    """J-014..J-016, J-020..J-022."""

    def setUp(self):
        self.fr = appends(SALT, 1, IDS[:5])
        self.offs = offsets(self.fr)

    def damaged(self, index, mutate):
        fr = list(self.fr)
        b = bytearray(fr[index])
        mutate(b)
        fr[index] = bytes(b)
        return journal(fr)

    def modes(self, data, kind, index, nbytes=None):
        o = self.offs[index]
        size = len(self.fr[index]) if nbytes is None else nbytes
        s = read(data, "salvage")
        self.assertEqual(s["findings"], [fj(kind, o, size)])
        self.assertEqual(s["elements"], IDS[:index] + IDS[index + 1:5])
        self.assertEqual(s["validEnd"], len(data))
        self.assertEqual([f["sequence"] for f in s["frames"]],
                         [i + 1 for i in range(5) if i != index])
        p = read(data, "prefix")
        self.assertFalse(p["refused"])
        self.assertEqual(p["findings"], [fj(kind, o, len(data) - o)])      # J-021
        self.assertEqual(p["elements"], IDS[:index])
        self.assertEqual(p["validEnd"], o)                                 # J-013
        st = read(data, "strict")
        self.assertTrue(st["refused"])
        self.assertEqual((st["elements"], st["frames"]), ([], []))
        self.assertEqual(st["findings"], s["findings"])                    # J-022
        self.assertEqual(st["validEnd"], s["validEnd"])
        return s

    def test_bad_crc_resync(self):
        data = self.damaged(2, lambda b: b.__setitem__(30, b[30] ^ 0x40))
        self.modes(data, "badCRC", 2)

    def test_bad_crc_in_crc_field(self):
        data = self.damaged(1, lambda b: b.__setitem__(5, b[5] ^ 1))
        self.modes(data, "badCRC", 1)

    def test_zero_type(self):
        data = self.damaged(2, lambda b: b.__setitem__(8, 0))
        self.modes(data, "badType", 2)

    def test_oversized_length(self):
        data = self.damaged(1, lambda b: b.__setitem__(slice(0, 4), b"\xff\xff\xff\xff"))
        self.modes(data, "badLength", 1)

    def test_length_too_small(self):
        data = self.damaged(3, lambda b: b.__setitem__(slice(0, 4), struct.pack("<I", 3)))
        self.modes(data, "badLength", 3)

    def test_first_frame_damaged(self):
        data = self.damaged(0, lambda b: b.__setitem__(20, b[20] ^ 1))
        self.modes(data, "badCRC", 0)

    def test_foreign_salt_frame_mid_file(self):
        fr = list(self.fr)
        fr[2] = frame(SALT ^ 0xFFFF, 1, 3, stroke(IDS[2]))
        data = journal(fr)
        self.modes(data, "badCRC", 2)

    def test_whole_journal_foreign_salt(self):
        data = journal(appends(SALT ^ 5, 1, IDS[:3]))
        a = read(data)
        self.assertEqual(a["findings"], [fj("badTailFrame", 64, len(data) - 64, True)])
        self.assertEqual(a["frames"], [])
        self.assertEqual(a["validEnd"], 64)

    def test_missing_sequences_reported(self):
        data = self.damaged(2, lambda b: b.__setitem__(30, b[30] ^ 0x40))
        jr = L.read_journal(data, "salvage")
        self.assertEqual(jr.findings[0].missing, (3, 4))

    def test_two_damaged_frames_one_stretch(self):
        fr = list(self.fr)
        for i in (1, 2):
            b = bytearray(fr[i])
            b[-1] ^= 1
            fr[i] = bytes(b)
        data = journal(fr)
        a = read(data)
        self.assertEqual(a["findings"], [fj("badCRC", self.offs[1], len(fr[1]) + len(fr[2]))])
        self.assertEqual(a["elements"], [IDS[0], IDS[3], IDS[4]])
        self.assertEqual(L.read_journal(data).findings[0].missing, (2, 4))

    def test_garbage_inserted_between_frames(self):
        fr = list(self.fr)
        data = journal(fr[:2] + [b"\x01" * 13] + fr[2:])
        a = read(data)
        self.assertEqual(a["findings"], [fj("badLength", self.offs[2], 13)])
        self.assertEqual(a["elements"], IDS[:5])
        self.assertIsNone(L.read_journal(data).findings[0].missing)

    def test_sequence_gap_at_boundary_J016(self):
        fr = self.fr[:2] + appends(SALT, 4, IDS[3:5])        # sequence 3 is missing
        data = journal(fr)
        o = offsets(fr)[2]
        s = read(data)
        self.assertEqual(s["findings"], [fj("sequenceGap", o, 0)])
        self.assertEqual([f["sequence"] for f in s["frames"]], [1, 2, 4, 5])
        self.assertEqual(s["elements"], IDS[:2] + IDS[3:5])            # J-020
        self.assertEqual(L.read_journal(data).findings[0].missing, (3, 4))
        p = read(data, "prefix")
        self.assertEqual(p["findings"], [fj("sequenceGap", o, len(data) - o)])
        self.assertEqual(p["elements"], IDS[:2])
        self.assertTrue(read(data, "strict")["refused"])

    def test_sequence_regression_J016(self):
        fr = self.fr[:3] + [self.fr[1]] + self.fr[3:]        # sequence 2 repeated
        data = journal(fr)
        o = offsets(fr)[3]
        s = read(data)
        self.assertEqual(s["findings"], [fj("sequenceRegression", o, len(self.fr[1]))])
        self.assertEqual(s["elements"], IDS[:5])
        self.assertTrue(read(data, "strict")["refused"])
        self.assertEqual(read(data, "prefix")["elements"], IDS[:3])

    def test_resync_window_J014(self):
        # After damage, a frame whose sequence is beyond expected + 2^24 is not a
        # resynchronization point: the rest is a torn tail.
        fr = list(self.fr[:2])
        b = bytearray(appends(SALT, 3, [IDS[2]])[0])
        b[-1] ^= 1
        fr.append(bytes(b))
        fr.append(frame(SALT, 1, 3 + (1 << 24), stroke(IDS[3])))
        data = journal(fr)
        o = offsets(fr)[2]
        a = read(data)
        self.assertEqual(a["findings"], [fj("badTailFrame", o, len(data) - o, True)])
        self.assertEqual(a["validEnd"], o)
        # ... but one just inside the window is.
        fr[3] = frame(SALT, 1, 3 + (1 << 24) - 1, stroke(IDS[3]))
        data = journal(fr)
        a = read(data)
        self.assertEqual(a["findings"], [fj("badCRC", o, len(fr[2]))])
        self.assertEqual(a["elements"], IDS[:2] + [IDS[3]])

    def test_beyond_window_at_boundary_is_gap_stretch_J016(self):
        # A valid frame at a boundary beyond the window starts a stretch whose reason
        # is sequenceGap; the walk resynchronizes at the next frame in the window.
        fr = list(self.fr[:2]) + [frame(SALT, 1, 3 + (1 << 24), stroke(IDS[7]))] \
            + appends(SALT, 3, [IDS[2]])
        data = journal(fr)
        o = offsets(fr)[2]
        a = read(data)
        self.assertEqual(a["findings"], [fj("sequenceGap", o, len(fr[2]))])
        self.assertEqual([f["sequence"] for f in a["frames"]], [1, 2, 3])
        self.assertEqual(a["elements"], IDS[:3])

    def test_saturating_window_J017(self):
        self.assertEqual(L.window_end((1 << 64) - 5), (1 << 64) - 1)
        self.assertEqual(L.window_end(10), 10 + (1 << 24))

    def test_corruption_then_torn_tail(self):
        fr = list(self.fr)
        b = bytearray(fr[1])
        b[-1] ^= 1
        fr[1] = bytes(b)
        data = journal(fr) + bytes(30)
        s = read(data)
        end = len(data) - 30
        self.assertEqual(s["findings"], [fj("badCRC", self.offs[1], len(fr[1])),
                                         fj("zeroFill", end, 30, True)])
        self.assertEqual(s["validEnd"], end)
        # J-021: one finding to the end of the file; nothing after the stop, not even
        # the torn tail.
        p = read(data, "prefix")
        self.assertEqual(p["findings"], [fj("badCRC", self.offs[1], len(data) - self.offs[1])])
        self.assertEqual(p["validEnd"], self.offs[1])

    def test_scan_terminates_on_large_garbage(self):
        data = journal(self.fr[:1]) + bytes(range(256)) * 64
        a = read(data)
        self.assertEqual(len(a["findings"]), 1)
        self.assertTrue(a["findings"][0]["tornTail"])


class TestFrameTypes(unittest.TestCase):
    """F-010, F-011, padding."""

    def test_unknown_critical_stops(self):
        fr = appends(SALT, 1, IDS[:2]) + [frame(SALT, 0x20, 3, b"future")] \
            + appends(SALT, 4, IDS[2:4])
        data = journal(fr)
        o = offsets(fr)[2]
        for mode in ("salvage", "prefix"):
            a = read(data, mode)
            self.assertEqual(a["findings"], [fj("unknownCriticalType", o, len(data) - o)])
            self.assertEqual(a["elements"], IDS[:2])
            self.assertEqual([f["sequence"] for f in a["frames"]], [1, 2])
            self.assertFalse(a["refused"])
            self.assertEqual(a["validEnd"], o)                             # J-018
        self.assertEqual(L.read_journal(data).next_sequence, 3)
        self.assertTrue(read(data, "strict")["refused"])

    def test_unknown_ancillary_skipped(self):
        fr = appends(SALT, 1, IDS[:2]) + [frame(SALT, 0xC3, 3, b"extra")] \
            + appends(SALT, 4, IDS[2:4])
        data = journal(fr)
        for mode in L.MODES:
            a = read(data, mode)
            self.assertEqual(a["findings"], [fj("unknownAncillaryType", offsets(fr)[2], 0)])
            self.assertEqual(a["elements"], IDS[:4])
            self.assertEqual([f["sequence"] for f in a["frames"]], [1, 2, 4, 5])
            self.assertFalse(a["refused"])
        jr = L.read_journal(data, "salvage")
        self.assertEqual(jr.next_sequence, 6)

    def test_padding_silent(self):
        fr = appends(SALT, 1, IDS[:1]) + [frame(SALT, 0x80, 2, bytes(100))] \
            + appends(SALT, 3, IDS[1:2])
        a = read(journal(fr), "strict")
        self.assertEqual(a["findings"], [])
        self.assertEqual([f["sequence"] for f in a["frames"]], [1, 3])
        self.assertEqual(a["elements"], IDS[:2])

    def test_bad_body_trailing_bytes_F012(self):
        fr = appends(SALT, 1, IDS[:1]) + [frame(SALT, 1, 2, stroke(IDS[1]) + b"\x00")] \
            + appends(SALT, 3, IDS[2:3])
        data = journal(fr)
        o = offsets(fr)[1]
        s = read(data)
        self.assertEqual(s["findings"], [fj("badBody", o, len(fr[1]))])
        self.assertEqual(s["elements"], [IDS[0], IDS[2]])
        self.assertEqual([f["sequence"] for f in s["frames"]], [1, 2, 3])
        # J-026: prefix applies nothing from it on; the finding keeps the frame's size;
        # the frame list ends at it; validEnd is the walk's (the frames are intact).
        p = read(data, "prefix")
        self.assertEqual(p["findings"], [fj("badBody", o, len(fr[1]))])
        self.assertEqual(p["elements"], [IDS[0]])
        self.assertEqual([f["sequence"] for f in p["frames"]], [1, 2])
        self.assertEqual(p["validEnd"], len(data))
        st = read(data, "strict")
        self.assertEqual((st["refused"], st["findings"]), (True, s["findings"]))

    def test_absorbed_frames_listed_not_decoded_P004(self):
        fr = appends(SALT, 1, IDS[:2]) + [frame(SALT, 1, 3, b"\xff not a body")] \
            + appends(SALT, 4, IDS[3:4])
        a = read(journal(fr), replayFrom=4)
        self.assertEqual([f["sequence"] for f in a["frames"]], [1, 2, 3, 4])
        self.assertEqual(a["findings"], [])                         # seq 3 not decoded
        self.assertEqual(a["elements"], [IDS[3]])

    def test_skipped_ids_not_listed_for_a_journal(self):
        # P-006 information is about the page, not the file (4.4).
        fr = appends(SALT, 1, [IDS[0], IDS[0]]) + [frame(SALT, 4, 3, b_delete([IDS[5]]))]
        a = read(journal(fr), "strict")
        self.assertEqual((a["findings"], a["refused"], a["elements"]), ([], False, [IDS[0]]))


class TestJournalHeader(unittest.TestCase):
    """J-002, J-023."""

    def test_header_fields(self):
        fr = appends(SALT, 1, IDS[:2])
        for kw, reason in [(dict(magic=b"LNOTEJNX"), "badMagic"),
                           (dict(version=2, crc=0), "badVersion"),
                           (dict(header_size=65), "badHeaderSize"),
                           (dict(flags=1), "nonZeroReserved"),
                           (dict(reserved=1), "nonZeroReserved"),
                           (dict(crc=0), "badHeaderCRC")]:
            data = journal_header(**kw) + b"".join(fr)
            self.assertEqual(L.JournalHeader(data).reason, reason, kw)      # J-006
            a = read(data, "salvage")
            self.assertFalse(a["headerValid"], kw)
            self.assertEqual(a["findings"], [fj("badHeader", 0, 64)], kw)
            # J-023: the stored salt still validates the frames.
            self.assertEqual(a["elements"], IDS[:2], kw)
            p = read(data, "prefix")
            self.assertEqual((p["elements"], p["refused"], p["validEnd"]), ([], False, 0), kw)
            self.assertEqual(p["findings"], [fj("badHeader", 0, 64)])
            st = read(data, "strict")
            self.assertEqual((st["refused"], st["validEnd"]), (True, 0), kw)

    def test_first_sequence_zero_not_salvaged(self):
        data = journal_header(first=0) + b"".join(appends(SALT, 0, IDS[:2]))
        self.assertEqual(L.JournalHeader(data).reason, "badFirstSequence")
        a = read(data)
        self.assertEqual((a["findings"], a["elements"], a["validEnd"]),
                         ([fj("badHeader", 0, 64)], [], 0))

    def test_other_version_never_salvaged_J025(self):
        data = journal_header(version=2) + b"".join(appends(SALT, 1, IDS[:2]))
        h = L.JournalHeader(data)
        self.assertEqual((h.reason, h.other_version), ("badVersion", True))
        for mode in L.MODES:
            a = read(data, mode)
            self.assertEqual((a["findings"], a["frames"], a["elements"], a["validEnd"]),
                             ([fj("badHeader", 0, 64)], [], [], 0), mode)
            self.assertEqual(a["refused"], mode == "strict")

    def test_damaged_salt_salvages_nothing(self):
        data = bytearray(journal(appends(SALT, 1, IDS[:2])))
        data[41] ^= 0x10
        a = read(bytes(data))
        self.assertEqual([f["kind"] for f in a["findings"]], ["badHeader", "badTailFrame"])
        self.assertEqual(a["elements"], [])

    def test_short_file_is_torn_creation_J028(self):
        # J-028: at most 64 bytes with an invalid header: information in every mode.
        for data in [b"", bytes(10), bytes(64), journal_header()[:30], journal_header(crc=0)]:
            for mode in L.MODES:
                a = read(data, mode)
                self.assertFalse(a["headerValid"])
                self.assertEqual(a["findings"], [fj("tornCreation", 0, len(data), True)],
                                 (len(data), mode))
                self.assertEqual((a["validEnd"], a["refused"], a["frames"]), (0, False, []))

    def test_invalid_header_then_zeros_is_torn_creation_J028_P022(self):
        # J-028: an invalid header followed only by zeros (a prepared journal, P-022, or
        # its header torn while adopted) holds no frame: information in every mode.
        for data in [bytes(65), bytes(64 + 4096), journal_header()[:40] + bytes(24 + 1024)]:
            for mode in L.MODES:
                a = read(data, mode)
                self.assertEqual(a["findings"], [fj("tornCreation", 0, len(data), True)], (len(data), mode))
                self.assertEqual((a["validEnd"], a["refused"], a["frames"]), (0, False, []))

    def test_invalid_header_then_a_nonzero_byte_is_damage_J028(self):
        for data in [bytes(64) + b"\x01", bytes(64 + 1023) + b"\x01", journal_header()[:40] + bytes(24) + b"\x07"]:
            a = read(data, "salvage")
            self.assertEqual(a["findings"][0], fj("badHeader", 0, 64))
            self.assertTrue(read(data, "strict")["refused"])

    def test_other_version_header_alone_is_not_torn_J025_J028(self):
        a = read(journal_header(version=2), "strict")
        self.assertEqual((a["findings"], a["refused"]), ([fj("badHeader", 0, 64)], True))


# ======================================================================================
# Section 6: points, elements, changes
# ======================================================================================

def dec_points(b, count, angles=False):
    r = L.Reader(b)
    pts = L.decode_points(r, count, angles)
    assert r.remaining() == 0
    return pts


class TestPoints(unittest.TestCase):
    def roundtrip(self, pts, angles=False):
        self.assertEqual(dec_points(encode_points(pts, angles), len(pts), angles),
                         [tuple(p) for p in pts])

    def test_one_point(self):
        self.roundtrip([(5, -7, 12, 1000, 0)])
        self.assertEqual(encode_points([(0, 0, 0, 0, 0)]), bytes(5))

    def test_smooth_stroke_is_compact_R7(self):
        pts = [(100 + 3 * i, 200 + 2 * i, 15, 700, 8 * i) for i in range(50)]
        self.roundtrip(pts)
        # one byte per field after the first two points
        self.assertEqual(len(encode_points(pts)) - len(encode_points(pts[:2])), 48 * 5)
        self.assertLessEqual(len(encode_points(pts)), 50 * 5 + 5)

    def test_extremes(self):
        lo, hi = -(1 << 31), (1 << 31) - 1
        pts = [(lo, hi, 65535, 0, 0), (hi, lo, 0, 65535, 2**32 - 1),
               (lo, hi, 65535, 65535, 2**32 - 1), (hi, hi, 0, 0, 2**32 - 1)]
        self.roundtrip(pts)

    def test_angles(self):
        pts = [(0, 0, 1, 2, 0, 65535, 0), (1, 1, 1, 2, 5, 0, 65535), (3, 2, 1, 2, 10, 100, 200)]
        self.roundtrip(pts, True)

    def test_overflow_rejected_E002(self):
        for pts in ([((1 << 31), 0, 0, 0, 0)],
                    [(0, -(1 << 31) - 1, 0, 0, 0)],
                    [(0, 0, 65536, 0, 0)],
                    [(0, 0, 0, 65536, 0)],
                    [(0, 0, 0, 0, 0), (0, 0, 0, 0, 2**32)],
                    [(0, 0, 5, 0, 0), (0, 0, -1, 0, 0)],
                    [(0, 0, 0, 0, 0), ((1 << 31) - 1, 0, 0, 0, 1), (2 * ((1 << 31) - 1), 0, 0, 0, 2)]):
            with self.assertRaises(L.DecodeError, msg=str(pts)):
                dec_points(encode_points(pts), len(pts))

    def test_huge_delta_rejected(self):
        # second-order delta of -2^63 (svarint of the most negative i64)
        b = encode_points([(0, 0, 0, 0, 0), (0, 0, 0, 0, 1)]) + svarint(-(1 << 63)) + bytes(4)
        with self.assertRaises(L.DecodeError):
            dec_points(b, 3)

    def test_angle_range(self):
        with self.assertRaises(L.DecodeError):
            dec_points(encode_points([(0, 0, 0, 0, 0, 65536, 0)], True), 1, True)

    def test_time_rules_E003(self):
        with self.assertRaises(L.DecodeError):
            dec_points(encode_points([(0, 0, 0, 0, 3)]), 1)
        with self.assertRaises(L.DecodeError):
            dec_points(encode_points([(0, 0, 0, 0, 0), (0, 0, 0, 0, 5), (0, 0, 0, 0, 4)]), 3)
        self.roundtrip([(0, 0, 0, 0, 0), (0, 0, 0, 0, 0), (0, 0, 0, 0, 0)])

    def test_non_minimal_varint(self):
        b = b"\x80\x00" + bytes(4)
        with self.assertRaises(L.DecodeError):
            dec_points(b, 1)

    def test_count_limits_E004_E010(self):
        with self.assertRaises(L.DecodeError):
            L.decode_points(L.Reader(bytes(9)), 2)       # 2 * 5 > 9
        self.assertEqual(len(L.decode_points(L.Reader(bytes(10)), 2)), 2)
        with self.assertRaises(L.DecodeError):
            L.decode_points(L.Reader(bytes(10)), 0)
        with self.assertRaises(L.DecodeError):
            L.decode_points(L.Reader(bytes(5 * 65537)), 65537)
        self.assertEqual(len(L.decode_points(L.Reader(bytes(5 * 65536)), 65536)), 65536)

    def test_truncated(self):
        with self.assertRaises(L.DecodeError):
            dec_points(encode_points([(300, 300, 300, 300, 0)])[:-1] + b"", 1)


class TestElements(unittest.TestCase):
    def dec(self, b):
        r = L.Reader(b)
        e = L.decode_element(r)
        self.assertEqual(r.remaining(), 0)
        return e

    def bad(self, b):
        with self.assertRaises(L.DecodeError):
            L.decode_change(1, L.Reader(b))

    def test_stroke(self):
        e = self.dec(stroke(IDS[0], ink="pencil", color=(1, 2, 3, 4), width=25,
                            transform=(1, 0, 0, 1, 10, 20), angles=True,
                            points=[(0, 0, 1, 2, 0, 3, 4)]))
        self.assertEqual((e.kind, e.id_text, e.fields["ink"], e.fields["color"]),
                         (1, IDS[0], "pencil", (1, 2, 3, 4)))
        self.assertEqual(e.fields["transform"], (1, 0, 0, 1, 10, 20))
        self.assertEqual(e.fields["points"], [(0, 0, 1, 2, 0, 3, 4)])

    def test_image(self):
        e = self.dec(image(IDS[1], x=-5, y=7, w=640, h=480, transform=(2, 0, 0, 2, 0, 0)))
        self.assertEqual((e.kind, e.fields["x"], e.fields["y"], e.fields["width"]), (2, -5, 7, 640))

    def test_invalid_elements_E010(self):
        self.bad(bytes([3]) + U(IDS[0]))                               # kind
        self.bad(stroke(IDS[0], ink=""))                               # ink type 0 bytes
        self.bad(stroke(IDS[0], ink="x" * 65))                         # > 64 bytes
        self.dec(stroke(IDS[0], ink="x" * 64))
        self.bad(stroke(IDS[0], ink=b"\xff\xfe"))                      # UTF-8 (G-006)
        self.bad(stroke(IDS[0], flags_extra=4))                        # flag bit
        self.bad(image(IDS[0], flags_extra=2))
        self.bad(stroke(IDS[0], transform=(1, 0, 0, 1, math.inf, 0)))  # non-finite
        self.bad(image(IDS[0], transform=(math.nan, 0, 0, 1, 0, 0)))
        self.bad(stroke(IDS[0], points=[], raw_points=b""))            # count 0
        self.bad(stroke(IDS[0], count=65537, raw_points=bytes(5 * 65537)))
        self.bad(stroke(IDS[0]) + b"\x00")                             # F-012

    def test_change_limits_E027(self):
        with self.assertRaises(L.DecodeError):
            L.decode_change(4, L.Reader(varint(1_000_001)))
        with self.assertRaises(L.DecodeError):
            L.decode_change(4, L.Reader(varint(3) + U(IDS[0]) * 2))
        with self.assertRaises(L.DecodeError):
            L.decode_change(6, L.Reader(b_metadata(flags=1)))


class TestApply(unittest.TestCase):
    def page(self, n=4):
        p = L.Page()
        for i in range(n):
            p.apply(L.decode_change(1, L.Reader(stroke(IDS[i]))))
        return p

    def ch(self, t, body):
        return L.decode_change(t, L.Reader(body))

    def twice(self, p, c):
        """E-026: applying twice equals applying once."""
        p.apply(c)
        once = p.ids()
        p.apply(c)
        self.assertEqual(p.ids(), once)
        return once

    def test_append_duplicate_E020(self):
        p = self.page(2)
        self.assertEqual(p.apply(self.ch(1, stroke(IDS[0]))), ["duplicateElement"])
        self.assertEqual(p.ids(), IDS[:2])

    def test_replace_in_place_E021(self):
        p = self.page()
        c = self.ch(2, b_replace(IDS[1], [stroke(IDS[7]), stroke(IDS[8])]))
        self.assertEqual(self.twice(p, c), [IDS[0], IDS[7], IDS[8], IDS[2], IDS[3]])
        self.assertEqual(p.apply(c), ["missingElement"])

    def test_replace_erase_and_duplicate_fragment(self):
        p = self.page()
        self.assertEqual(self.twice(p, self.ch(2, b_replace(IDS[0], []))), IDS[1:4])
        k = p.apply(self.ch(2, b_replace(IDS[1], [stroke(IDS[3]), stroke(IDS[1])])))
        self.assertEqual(k, ["duplicateElement"])
        self.assertEqual(p.ids(), [IDS[1], IDS[2], IDS[3]])

    def test_transform_sets_E022(self):
        p = self.page(2)
        self.twice(p, self.ch(3, b_transform([(IDS[0], (2, 0, 0, 2, 1, 1))])))
        self.assertEqual(p.elements[0].fields["transform"], (2, 0, 0, 2, 1, 1))
        self.assertEqual(p.apply(self.ch(3, b_transform([(IDS[5], (1, 0, 0, 1, 0, 0)),
                                                          (IDS[6], (1, 0, 0, 1, 0, 0))]))),
                         ["missingElement", "missingElement"])             # one per id (P-006)

    def test_delete_E023(self):
        p = self.page()
        self.assertEqual(self.twice(p, self.ch(4, b_delete([IDS[1], IDS[3]]))), [IDS[0], IDS[2]])

    def test_reorder_E024(self):
        p = self.page()
        self.assertEqual(self.twice(p, self.ch(5, b_reorder(1, [IDS[3], IDS[0]]))),
                         [IDS[1], IDS[3], IDS[0], IDS[2]])
        p = self.page()
        self.assertEqual(self.twice(p, self.ch(5, b_reorder(99, [IDS[0], IDS[6]]))),
                         [IDS[1], IDS[2], IDS[3], IDS[0]])
        p = self.page()
        self.assertEqual(self.twice(p, self.ch(5, b_reorder(0, [IDS[2]]))),
                         [IDS[2], IDS[0], IDS[1], IDS[3]])

    def test_metadata_E025(self):
        p = L.Page()
        p.apply(self.ch(6, b_metadata(100, 200)))
        self.assertEqual((p.width, p.height), (100, 200))


# ======================================================================================
# Section 7: snapshots
# ======================================================================================

def snapshot(ids, generation=1, next_seq=1, count=None, page=PAGE, salt=SNAP_SALT, damage=None,
             extra=()):
    fr = [frame(salt, 6, 1, b_metadata())] + [frame(salt, 1, 2 + i, stroke(e))
                                               for i, e in enumerate(ids)] + list(extra)
    if damage is not None:
        b = bytearray(fr[damage])
        b[-1] ^= 1
        fr[damage] = bytes(b)
    return snapshot_header(page, generation, salt, next_seq,
                           len(ids) if count is None else count) + b"".join(fr), fr


class TestSingleFile(unittest.TestCase):
    """K-017: a journal or snapshot checked on its own, against what its name gives."""

    def check(self, data, name, mode="salvage"):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, name)
            with open(path, "wb") as f:
                f.write(data)
            rep = L.check_file(path, mode)
            return rep.status, sorted(f["kind"] for f in rep.findings)

    def test_named_journal_J005_J007(self):
        data = journal(appends(SALT, 1, IDS[:3]))
        self.assertEqual(self.check(data, PAGE + ".0.journal"), (0, []))
        self.assertEqual(self.check(data, "loose.journal"), (0, []))
        self.assertEqual(self.check(data, OTHER_PAGE + ".0.journal"), (4, ["foreignJournal"]))
        self.assertEqual(self.check(data, PAGE + ".2.journal"), (4, ["baseMismatch"]))
        self.assertEqual(self.check(data, PAGE + ".2.journal", "strict"), (4, ["baseMismatch", "refused"]))
        # A foreign journal's frames are not read: its damage is not reported.
        bad = bytearray(data)
        bad[-1] ^= 1
        self.assertEqual(self.check(bytes(bad), OTHER_PAGE + ".0.journal"), (4, ["foreignJournal"]))

    def test_which_reader(self):
        snap, _ = snapshot(IDS[:2], next_seq=4)
        self.assertEqual(self.check(snap, "any.bin"), (0, []))          # the magic decides
        status, kinds = self.check(snap, PAGE + ".0.journal")           # the name decides
        self.assertEqual((status, kinds[0]), (4, "badHeader"))
        self.assertEqual(self.check(snap, OTHER_PAGE + ".content"), (4, ["foreignSnapshot"]))


class TestSnapshot(unittest.TestCase):
    def test_valid_S001_S002(self):
        data, _ = snapshot(IDS[:3], generation=4, next_seq=17)
        a = L._snapshot_actual(data, "strict")
        canvas, contents = a.pop("canvas"), a.pop("contents")
        self.assertEqual(a, {"refused": False, "headerValid": True, "generation": 4,
                             "nextSequence": 17, "elements": IDS[:3], "findings": []})
        # README, differential vectors: the page's canvas and every element's fields.
        self.assertEqual(len(canvas), 2)
        self.assertEqual([(c[0], c[1]) for c in contents], [("stroke", i) for i in IDS[:3]])
        self.assertTrue(all(len(c) == 8 and c[7] for c in contents))

    def test_empty(self):
        data, _ = snapshot([])
        self.assertEqual(L._snapshot_actual(data, "strict")["elements"], [])

    def test_one_damaged_element_S003(self):
        data, fr = snapshot(IDS[:4], damage=2)
        o = offsets(fr)[2]
        for mode in ("salvage", "prefix"):
            a = L._snapshot_actual(data, mode)
            self.assertFalse(a["refused"])
            self.assertEqual(a["elements"], [IDS[0], IDS[2], IDS[3]])
            self.assertEqual(a["findings"], [fj("badCRC", o, len(fr[2])),
                                             fj("missingElements", len(data), 0)])
        self.assertTrue(L._snapshot_actual(data, "strict")["refused"])

    def test_last_element_damaged(self):
        data, fr = snapshot(IDS[:3], damage=3)
        a = L._snapshot_actual(data, "salvage")
        o = offsets(fr)[3]
        self.assertEqual(a["findings"], [fj("badTailFrame", o, len(data) - o, True),
                                         fj("missingElements", len(data), 0)])
        self.assertEqual(a["elements"], IDS[:2])

    def test_bad_header_crc_S006(self):
        data, _ = snapshot(IDS[:2], generation=3, next_seq=9)
        data = bytearray(data)
        data[60] ^= 1                                       # header CRC
        data = bytes(data)
        a = L._snapshot_actual(data, "salvage")            # stored fields are used
        self.assertFalse(a["headerValid"])
        self.assertEqual(a["findings"], [fj("badHeader", 0, 64)])
        self.assertEqual((a["elements"], a["generation"], a["nextSequence"]), (IDS[:2], 3, 9))
        p = L._snapshot_actual(data, "prefix")             # lost in prefix mode
        self.assertEqual((p["elements"], p["generation"], p["nextSequence"], p["findings"]),
                         ([], None, None, [fj("badHeader", 0, 64)]))
        self.assertFalse(L.read_snapshot(data, "prefix").usable)
        st = L._snapshot_actual(data, "strict")
        self.assertEqual((st["refused"], st["elements"]), (True, []))

    def test_generation_zero_is_lost_S006(self):
        data, _ = snapshot(IDS[:2], generation=0)
        self.assertEqual(L.SnapshotHeader(data).reason, "badGeneration")
        sr = L.read_snapshot(data, "salvage")
        self.assertFalse(sr.usable)
        self.assertEqual((sr.page.ids(), sr.generation, sr.next_sequence), ([], None, None))

    def test_unexpected_frame_skipped_S007(self):
        data, fr = snapshot(IDS[:2], extra=[frame(SNAP_SALT, 4, 4, b_delete([IDS[0]])),
                                            frame(SNAP_SALT, 1, 5, stroke(IDS[2]))])
        a = L._snapshot_actual(data, "salvage")
        o = offsets(fr)[3]
        # S-008: the element beyond elementCount is kept and reported (S-010: after the rest).
        self.assertEqual(a["findings"], [fj("unexpectedFrame", o, len(fr[3])),
                                         fj("extraElements", len(data), 0)])
        self.assertEqual(a["elements"], IDS[:3])        # frames beyond elementCount are kept
        self.assertTrue(L._snapshot_actual(data, "strict")["refused"])

    def test_types_at_wrong_place_S007(self):
        fr = [frame(SNAP_SALT, 1, 1, stroke(IDS[0])), frame(SNAP_SALT, 6, 2, b_metadata()),
              frame(SNAP_SALT, 1, 3, stroke(IDS[1]))]
        data = snapshot_header(count=2) + b"".join(fr)
        a = L._snapshot_actual(data, "salvage")
        o = offsets(fr)
        self.assertEqual(a["findings"], [fj("unexpectedFrame", o[0], len(fr[0])),
                                         fj("unexpectedFrame", o[1], len(fr[1])),
                                         fj("missingElements", len(data), 0)])
        self.assertEqual(a["elements"], [IDS[1]])

    def test_duplicate_element_is_damage_S007(self):
        data, fr = snapshot([IDS[0], IDS[0], IDS[1]])
        a = L._snapshot_actual(data, "salvage")
        o = offsets(fr)[2]
        self.assertEqual(a["findings"], [fj("duplicateElement", o, len(fr[2])),
                                         fj("missingElements", len(data), 0)])
        self.assertEqual(a["elements"], IDS[:2])
        self.assertTrue(L._snapshot_actual(data, "strict")["refused"])

    def test_unknown_critical_type_stops(self):
        data, fr = snapshot(IDS[:1], count=2, extra=[frame(SNAP_SALT, 0x30, 3, b"?"),
                                                    frame(SNAP_SALT, 1, 4, stroke(IDS[1]))])
        a = L._snapshot_actual(data, "salvage")
        o = offsets(fr)[2]
        self.assertEqual(a["findings"], [fj("unknownCriticalType", o, len(data) - o),
                                         fj("missingElements", len(data), 0)])
        self.assertEqual(a["elements"], IDS[:1])

    def test_foreign_S004(self):
        data, _ = snapshot(IDS[:1], page=OTHER_PAGE)
        sr = L.read_snapshot(data, "salvage", U(PAGE))
        self.assertEqual([(f.kind, f.offset, f.bytes) for f in sr.findings],
                         [("foreignSnapshot", 16, 16)])
        self.assertFalse(sr.usable)


# ======================================================================================
# Section 5: page recovery
# ======================================================================================

class PageDir:
    def __init__(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = os.path.join(self.tmp.name, "pages")
        os.mkdir(self.dir)

    def put(self, name, data):
        with open(os.path.join(self.dir, name), "wb") as f:
            f.write(data)

    def recover(self, mode="salvage"):
        return L.recover_page(self.dir, mode)


class TestPageRecovery(unittest.TestCase):
    def setUp(self):
        self.d = PageDir()
        self.addCleanup(self.d.tmp.cleanup)

    def test_empty_P001(self):
        pr = self.d.recover()
        self.assertEqual((pr.page.ids(), pr.generation, pr.next_sequence), ([], 0, 1))

    def test_journal_only(self):
        self.d.put(PAGE + ".0.journal", journal(appends(SALT, 1, IDS[:3])))
        pr = self.d.recover("strict")
        self.assertEqual((pr.page.ids(), pr.generation, pr.next_sequence, pr.refused),
                         (IDS[:3], 0, 4, False))

    def compacted(self):
        # Generation 2 snapshot absorbed sequences 1..5 (elements 0..4, element 1 deleted).
        snap, _ = snapshot([IDS[0], IDS[2], IDS[3]], generation=2, next_seq=6)
        self.d.put(PAGE + ".content", snap)
        # Retained journal base 0: garbage that must not be replayed (P-003).
        self.d.put(PAGE + ".0.journal", journal(appends(0x55, 1, [IDS[8]]), salt=0x55))
        # Journal base 1 (< G): retained too.
        self.d.put(PAGE + ".1.journal", journal([frame(SALT, 4, 5, b_delete([IDS[0]]))],
                                                base=1, first=5))
        # Journal base 2 starts before S: frames 4, 5 are already absorbed (P-004). The
        # append absorbed at 4 is in the snapshot (P-017 (b)).
        j2 = [frame(SALT, 1, 4, stroke(IDS[2])), frame(SALT, 0xC4, 5, b"absorbed ancillary"),
              frame(SALT, 1, 6, stroke(IDS[4])), frame(SALT, 1, 7, stroke(IDS[5]))]
        self.d.put(PAGE + ".2.journal", journal(j2, base=2, first=4))

    def test_snapshot_and_two_journals_P003_P004(self):
        self.compacted()
        j3 = [frame(0x99, 5, 8, b_reorder(0, [IDS[5]])), frame(0x99, 1, 9, stroke(IDS[6]))]
        self.d.put(PAGE + ".3.journal", journal(j3, base=3, salt=0x99, first=8))
        self.d.put(PAGE + ".content.tmp", b"partial")
        for mode in L.MODES:
            pr = self.d.recover(mode)
            self.assertEqual(pr.page.ids(), [IDS[5], IDS[0], IDS[2], IDS[3], IDS[4], IDS[6]], mode)
            self.assertEqual((pr.generation, pr.next_sequence, pr.refused), (2, 10, False))
            self.assertEqual(pr.finding_kinds(), [])
            self.assertEqual(pr.retained, [PAGE + ".0.journal", PAGE + ".1.journal"])
            info = sorted({f.kind for _, f in pr.findings})
            self.assertEqual(info, ["leftoverTemp", "retainedJournal", "unknownAncillaryType"])

    def test_absorbed_unknown_critical_type_stops_P004(self):
        # Frames below S are not decoded, but they pass through the frame walk: an
        # unknown critical type among them stops replay; later journals are not
        # replayed (P-007).
        snap, _ = snapshot(IDS[:2], generation=1, next_seq=4)
        self.d.put(PAGE + ".content", snap)
        self.d.put(PAGE + ".1.journal", journal(appends(SALT, 2, IDS[1:2]) +
                                                [frame(SALT, 0x44, 3, b"future")] +
                                                appends(SALT, 4, IDS[2:3]), base=1, first=2))
        self.d.put(PAGE + ".2.journal", journal(appends(0x77, 5, IDS[3:4]), base=2,
                                                salt=0x77, first=5))
        pr = self.d.recover()
        self.assertEqual(pr.page.ids(), IDS[:2])
        self.assertEqual(pr.finding_kinds(), ["notReplayed", "unknownCriticalType"])
        self.assertEqual(pr.next_sequence, 4)                   # max(S, 3)

    def test_gap_between_journals_P004(self):
        self.compacted()
        j3 = [frame(0x99, 1, 9, stroke(IDS[6]))]              # sequence 8 missing
        self.d.put(PAGE + ".3.journal", journal(j3, base=3, salt=0x99, first=9))
        pr = self.d.recover("salvage")
        self.assertEqual(pr.finding_kinds(), ["sequenceGap"])
        self.assertEqual(pr.page.ids(), [IDS[0], IDS[2], IDS[3], IDS[4], IDS[5], IDS[6]])
        self.assertEqual(pr.next_sequence, 10)
        gap = [(n, f) for n, f in pr.findings if f.kind == "sequenceGap"]
        self.assertEqual([(n, f.offset, f.bytes, f.missing) for n, f in gap],
                         [(PAGE + ".3.journal", 64, 0, (8, 9))])   # at the first frame
        pr = self.d.recover("prefix")
        self.assertEqual(pr.page.ids(), [IDS[0], IDS[2], IDS[3], IDS[4], IDS[5]])
        # P-009 / `recover`: the walk's next sequence of the last journal read counts
        # (information only in prefix mode).
        self.assertEqual(pr.next_sequence, 10)
        self.assertTrue(self.d.recover("strict").refused)

    def test_empty_later_journal_moves_expected_P009(self):
        self.d.put(PAGE + ".0.journal", journal(appends(SALT, 1, IDS[:2])))
        self.d.put(PAGE + ".1.journal", journal([], base=1, first=6))
        pr = self.d.recover("strict")
        self.assertEqual((pr.finding_kinds(), pr.next_sequence, pr.refused), ([], 6, False))

    def test_torn_creation_newest_journal_J028(self):
        # The newest journal was created, but its header never reached the disk.
        self.d.put(PAGE + ".0.journal", journal(appends(SALT, 1, IDS[:3])))
        self.d.put(PAGE + ".1.journal", journal([], base=1, first=4)[:20])
        for mode in L.MODES:
            pr = self.d.recover(mode)
            self.assertEqual((pr.finding_kinds(), pr.refused), ([], False), mode)
            self.assertEqual(pr.page.ids(), IDS[:3], mode)
            self.assertEqual(pr.next_sequence, 4, mode)
            kinds = [f.kind for _, f in pr.findings]
            self.assertEqual(kinds, ["tornCreation"], mode)

    def test_regression_across_journals_P004(self):
        # Journal 1 repeats sequence 3 of journal 0 (>= S): replayed twice on disk.
        self.d.put(PAGE + ".0.journal", journal(appends(SALT, 1, IDS[:3])))
        self.d.put(PAGE + ".1.journal", journal(appends(0x77, 3, IDS[5:7]), base=1,
                                                salt=0x77, first=3))
        pr = self.d.recover()
        self.assertEqual(pr.finding_kinds(), ["sequenceRegression"])
        self.assertEqual(pr.page.ids(), IDS[:3] + [IDS[6]])
        self.assertEqual(pr.next_sequence, 5)

    def test_prefix_bad_header_stops_later_journals_P007(self):
        self.d.put(PAGE + ".0.journal", journal(appends(SALT, 1, IDS[:2])))
        self.d.put(PAGE + ".1.journal", journal(appends(0x77, 3, IDS[2:3]), base=1,
                                                salt=0x77, first=3, crc=0))
        self.d.put(PAGE + ".2.journal", journal(appends(0x78, 4, IDS[3:4]), base=2,
                                                salt=0x78, first=4))
        pr = self.d.recover("prefix")
        self.assertEqual(pr.finding_kinds(), ["badHeader", "notReplayed"])
        self.assertEqual(pr.page.ids(), IDS[:2])
        pr = self.d.recover("salvage")                          # J-023 salvages it
        self.assertEqual(pr.finding_kinds(), ["badHeader"])
        self.assertEqual(pr.page.ids(), IDS[:4])
        self.assertTrue(self.d.recover("strict").refused)

    def test_one_loss_one_finding_K010(self):
        # A stretch in the middle of a journal reports its missing sequences; the page
        # does not report them again as a sequenceGap (R2-1).
        fr = appends(SALT, 1, IDS[:4])
        b = bytearray(fr[1])
        b[-1] ^= 1
        fr[1] = bytes(b)
        self.d.put(PAGE + ".0.journal", journal(fr))
        pr = self.d.recover()
        self.assertEqual(pr.finding_kinds(), ["badCRC"])
        self.assertEqual((pr.page.ids(), pr.next_sequence), ([IDS[0], IDS[2], IDS[3]], 5))

    def test_base_mismatch_J007(self):
        self.d.put(PAGE + ".0.journal", journal(appends(SALT, 1, IDS[:2]), base=4))
        pr = self.d.recover()
        self.assertEqual((pr.finding_kinds(), pr.page.ids()), (["baseMismatch"], IDS[:2]))
        self.assertEqual([(f.offset, f.bytes) for _, f in pr.findings], [(32, 8)])
        self.assertTrue(self.d.recover("strict").refused)

    def test_names_breaking_J001_ignored(self):
        # An uppercase page id no longer breaks J-001 (P-024, TestPageFileCase); an
        # uppercase temp name, a non-minimal base and a bad suffix still do.
        self.d.put(PAGE + ".0.journal", journal(appends(SALT, 1, IDS[:1])))
        self.d.put(PAGE + ".01.journal", journal(appends(SALT, 2, IDS[1:2]), first=2))
        self.d.put(PAGE + ".1.Journal", journal(appends(SALT, 2, IDS[1:2]), first=2))
        self.d.put(PAGE.upper() + ".content.tmp", b"partial")
        pr = self.d.recover()
        self.assertEqual((pr.page.ids(), pr.findings), (IDS[:1], []))

    def test_lost_snapshot_P008(self):
        snap, _ = snapshot(IDS[:2], generation=2, next_seq=3, page=OTHER_PAGE)
        self.d.put(PAGE + ".content", snap)
        # A retained journal (base < 2) is replayed too, since the snapshot is lost.
        self.d.put(PAGE + ".1.journal", journal(appends(SALT, 2, IDS[1:3]), base=1, first=2))
        pr = self.d.recover()
        self.assertEqual(pr.finding_kinds(), ["foreignSnapshot", "snapshotLost"])
        self.assertEqual([f.missing for _, f in pr.findings if f.kind == "snapshotLost"],
                         [(1, 2)])
        self.assertEqual((pr.page.ids(), pr.generation, pr.next_sequence), (IDS[1:3], 0, 4))
        self.assertTrue(self.d.recover("strict").refused)

    def test_gap_between_snapshot_and_journal(self):
        snap, _ = snapshot([IDS[0]], generation=1, next_seq=3)
        self.d.put(PAGE + ".content", snap)
        self.d.put(PAGE + ".1.journal", journal(appends(SALT, 5, IDS[1:3]), base=1, first=5))
        pr = self.d.recover()
        self.assertEqual(pr.finding_kinds(), ["sequenceGap"])
        self.assertEqual(pr.page.ids(), IDS[:3])

    def test_crash_between_P010_and_P011(self):
        # Old snapshot gen 1 (S=3), active journal base 1 with 3..5, new journal base 2
        # from 6: the new snapshot was never written. Everything is recovered (P-013).
        snap, _ = snapshot(IDS[:2], generation=1, next_seq=3)
        self.d.put(PAGE + ".content", snap)
        self.d.put(PAGE + ".1.journal", journal(appends(SALT, 3, IDS[2:5]), base=1, first=3))
        self.d.put(PAGE + ".2.journal", journal(appends(0x77, 6, IDS[5:7]), base=2,
                                                salt=0x77, first=6) + bytes(40))
        pr = self.d.recover("strict")
        self.assertFalse(pr.refused)
        self.assertEqual(pr.page.ids(), IDS[:7])
        self.assertEqual((pr.generation, pr.next_sequence), (1, 8))
        self.assertEqual(pr.finding_kinds(), [])            # the torn tail is information
        self.assertEqual([f.kind for _, f in pr.findings], ["zeroFill"])

    def test_foreign_journal_J005(self):
        self.d.put(PAGE + ".0.journal", journal(appends(SALT, 1, IDS[:2]), page=OTHER_PAGE))
        pr = self.d.recover()
        self.assertEqual(pr.finding_kinds(), ["foreignJournal"])
        self.assertEqual(pr.page.ids(), [])
        self.assertTrue(self.d.recover("strict").refused)

    def test_damaged_snapshot_element(self):
        snap, _ = snapshot(IDS[:3], generation=1, next_seq=4, damage=2)
        self.d.put(PAGE + ".content", snap)
        self.d.put(PAGE + ".1.journal", journal(appends(SALT, 4, IDS[3:4]), base=1, first=4))
        pr = self.d.recover()
        self.assertEqual(pr.page.ids(), [IDS[0], IDS[2], IDS[3]])
        self.assertEqual(pr.finding_kinds(), ["badCRC", "missingElements"])
        self.assertTrue(self.d.recover("strict").refused)

    def test_duplicate_reported_not_refused_P006(self):
        self.d.put(PAGE + ".0.journal", journal(appends(SALT, 1, [IDS[0], IDS[0]])))
        pr = self.d.recover("strict")
        self.assertFalse(pr.refused)
        self.assertEqual(pr.finding_kinds(), [])                  # information (J-027)
        self.assertEqual([(f.kind, f.offset, f.informational) for _, f in pr.findings],
                         [("duplicateElement", 64 + len(appends(SALT, 1, IDS[:1])[0]), True)])


# ======================================================================================
# Sections 10-11: document package, fsck without repair
# ======================================================================================

DOC_ID = "d0c00000-0000-4000-8000-0000000000aa"
ASSET = "a55e7000-0000-4000-8000-000000000001"
TIME = "2026-01-02T03:04:05.678Z"


def document_json(page_ids, doc_id=DOC_ID, title="Notes", counts=None, **extra):
    """10.1."""
    d = {"format": "lnote.document", "version": 1, "id": doc_id, "title": title,
         "created": TIME, "modified": TIME,
         "pages": [{"id": p, "width": 6120, "height": 7920, "created": TIME, "modified": TIME,
                    "elementCount": (counts or {}).get(p, 0)} for p in page_ids]}
    d.update(extra)
    return json.dumps(d).encode()


def manifest_json(n_pages, doc_id=DOC_ID, title="Notes", first_page=PAGE, **extra):
    """10.2. The cover is the first page's thumbnail path (D-030, D-080)."""
    m = {"format": "lnote.manifest", "version": 1, "id": doc_id, "title": title,
         "modified": TIME, "pageCount": n_pages,
         "cover": "thumbnails/%s.png" % first_page if n_pages else None}
    m.update(extra)
    return json.dumps(m).encode()


def make_package(path, pages, listed=None, counts=None, manifest=True, thumbnails=True,
                 assets=()):
    """A package folder (section 10). pages: page id -> journal bytes (base 0)."""
    listed = list(pages) if listed is None else listed
    os.makedirs(os.path.join(path, "pages"))
    for pid, data in pages.items():
        with open(os.path.join(path, "pages", pid + ".0.journal"), "wb") as f:
            f.write(data)
    with open(os.path.join(path, "document.json"), "wb") as f:
        f.write(document_json(listed, counts=counts))
    if manifest:
        with open(os.path.join(path, "manifest.json"), "wb") as f:
            f.write(manifest_json(len(listed)))
    if thumbnails:
        os.makedirs(os.path.join(path, "thumbnails"))
        for pid in listed:
            with open(os.path.join(path, "thumbnails", pid + ".png"), "wb") as f:
                f.write(b"\x89PNG\r\n\x1a\n")                             # D-051: the signature
    if assets:
        os.makedirs(os.path.join(path, "assets"))
        for name in assets:
            with open(os.path.join(path, "assets", name), "wb") as f:
                f.write(b"\x89PNG\r\n\x1a\n")                             # D-051: the signature


class TestPackage(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.path = os.path.join(self.tmp.name, DOC_ID + ".lnote")
        self.page_bytes = journal(appends(SALT, 1, IDS[:3]))

    def make(self, **kw):
        kw.setdefault("counts", {PAGE: 3})
        make_package(self.path, kw.pop("pages", {PAGE: self.page_bytes}), **kw)

    def put(self, rel, data):
        full = os.path.join(self.path, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)

    def check(self):
        return L.check_package(self.path)

    def kinds(self, rep, severity="error"):
        return sorted(f["kind"] for f in rep.findings if f["severity"] == severity)

    def test_clean_K002(self):
        self.make()
        rep = self.check()
        self.assertEqual((rep.status, rep.findings), (0, []))
        self.assertEqual(L._package_actual(self.path),
                         {"fsckExit": 0, "pages": [{"id": PAGE, "elements": IDS[:3]}],
                          "findingKinds": []})
        j = rep.to_json()
        self.assertEqual((j["status"], j["repair"], j["mode"]), (0, False, "salvage"))
        self.assertEqual(j["pages"][0]["elements"], 3)                  # K-005: a count

    def test_information_never_changes_status_K028(self):
        self.make(thumbnails=False, counts={PAGE: 17}, assets=[ASSET + ".png"])
        self.put(".lock", b"")
        rep = self.check()
        self.assertEqual(rep.status, 0)
        self.assertEqual(self.kinds(rep, "info"),
                         ["missingThumbnail", "orphanAsset", "staleElementCount", "staleLock"])

    def test_bad_thumbnail_is_information_D051_K026(self):
        self.make()
        self.put("thumbnails/%s.png" % PAGE, b"not an image")
        rep = self.check()
        self.assertEqual((rep.status, self.kinds(rep, "info")), (0, ["badThumbnail"]))
        full = os.path.join(self.path, "thumbnails", PAGE + ".png")
        os.truncate(full, 0)
        with open(full, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n")
        self.assertEqual(self.kinds(self.check(), "info"), [])
        os.truncate(full, (4 << 20) + 1)                                # sparse, past the limit
        self.assertEqual(self.kinds(self.check(), "info"), ["badThumbnail"])

    def test_lock_held_elsewhere_is_information_K015(self):
        import fcntl
        self.make()
        self.put(".lock", b"")
        fd = os.open(os.path.join(self.path, ".lock"), os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            rep = self.check()
        finally:
            os.close(fd)
        self.assertEqual((rep.status, self.kinds(rep, "info")), (0, ["lockedElsewhere"]))

    def test_folder_name_K012(self):
        other = os.path.join(self.tmp.name, OTHER_PAGE.upper() + ".lnote")
        make_package(other, {PAGE: self.page_bytes}, counts={PAGE: 3})
        rep = L.check_package(other)
        self.assertEqual((rep.status, self.kinds(rep)), (4, ["folderNameMismatch"]))
        # Either case of the right id is fine (D-001).
        upper = os.path.join(self.tmp.name, DOC_ID.upper() + ".lnote")
        make_package(upper, {PAGE: self.page_bytes}, counts={PAGE: 3})
        self.assertEqual(L.check_package(upper).status, 0)
        # A folder not named by a uuid (as the vectors are): no finding (K-012).
        plain = os.path.join(self.tmp.name, "ok-something.lnote")
        make_package(plain, {PAGE: self.page_bytes}, counts={PAGE: 3})
        rep = L.check_package(plain)
        self.assertEqual((rep.status, self.kinds(rep, "info")), (0, []))

    def test_document_missing(self):
        self.make()
        os.remove(os.path.join(self.path, "document.json"))
        a = L._package_actual(self.path)
        self.assertEqual(a, {"fsckExit": 4, "pages": [], "findingKinds": ["documentMissing"]})

    def test_document_invalid_D010_D011_D020(self):
        self.make()
        p2 = "5a6e0000-0000-4000-8000-000000000002"
        for raw in [b"{not json", b"[]", document_json([PAGE], format="lnote.other"),
                    document_json([PAGE], version=2), document_json([PAGE, PAGE]),
                    document_json([PAGE, PAGE.upper()]), document_json(["../x"]),
                    document_json([PAGE], doc_id="nope"),
                    document_json([PAGE], title="x" * 1025),
                    document_json([PAGE], pages=None)]:
            self.put("document.json", raw)
            a = L._package_actual(self.path)
            self.assertEqual(a, {"fsckExit": 4, "pages": [], "findingKinds": ["documentInvalid"]},
                             raw[:80])
        self.put("document.json", document_json([PAGE, p2], counts={PAGE: 3}))
        self.put("manifest.json", manifest_json(2))
        self.put("thumbnails/%s.png" % p2, b"")
        a = L._package_actual(self.path)     # a listed page without files is empty (K-013)
        self.assertEqual(a["pages"], [{"id": PAGE, "elements": IDS[:3]}, {"id": p2, "elements": []}])
        self.assertEqual(a["fsckExit"], 0)

    def test_stale_manifest_D031(self):
        self.make()
        for raw in [None, b"{", manifest_json(1, version=2), manifest_json(1, format="x"),
                    manifest_json(1, title="Other"), manifest_json(2),
                    manifest_json(1, doc_id=OTHER_PAGE), manifest_json(1, modified="2020")]:
            mp = os.path.join(self.path, "manifest.json")
            if raw is None:
                os.remove(mp)
            else:
                self.put("manifest.json", raw)
            rep = self.check()
            self.assertEqual((rep.status, self.kinds(rep)), (4, ["staleManifest"]), raw)
        # D-080: an upper-case id or another cover is stale too (what a writer would write).
        for raw in [manifest_json(1, doc_id=DOC_ID.upper()), manifest_json(1, cover="x")]:
            self.put("manifest.json", raw)
            self.assertEqual(self.check().status, 4, raw)
        self.put("manifest.json", manifest_json(1))
        self.assertEqual(self.check().status, 0)

    def test_unlisted_page_K013(self):
        self.make(pages={PAGE: self.page_bytes, OTHER_PAGE: journal(appends(SALT, 1, IDS[:1]),
                                                                    page=OTHER_PAGE)},
                  listed=[PAGE])
        self.put("pages/%s.content" % OTHER_PAGE, b"x")
        rep = self.check()
        self.assertEqual(self.kinds(rep), ["unlistedPage", "unlistedPage"])   # one per file
        self.assertEqual(rep.error_kinds(), ["unlistedPage"])
        self.assertEqual([p["id"] for p in rep.pages], [PAGE])

    def test_assets_D040_K014(self):
        jr = journal(appends(SALT, 1, IDS[:1]) + [frame(SALT, 1, 2, image(IDS[1], asset=ASSET))])
        self.make(pages={PAGE: jr}, counts={PAGE: 2})
        a = L._package_actual(self.path)
        self.assertEqual((a["fsckExit"], a["findingKinds"]), (4, ["missingAsset"]))
        self.put("assets/%s.png" % ASSET, b"img")
        self.assertEqual(self.check().status, 0)
        # fsck does not read lost+found/: an asset only a set-aside page file shows is
        # reported orphanAsset (information, K-014).
        orphan = "a55e7000-0000-4000-8000-000000000009"
        self.put("assets/%s.jpg" % orphan, b"img")
        self.assertEqual(self.kinds(self.check(), "info"), ["orphanAsset"])
        self.put("lost+found/%s.0.journal" % OTHER_PAGE,
                 journal([frame(SALT, 1, 1, image(IDS[2], asset=orphan))], page=OTHER_PAGE))
        self.assertEqual(self.kinds(self.check(), "info"), ["orphanAsset"])

    def test_leftover_temp_K016(self):
        self.make()
        for rel in ["document.json.tmp", "manifest.json.tmp", "pages/%s.content.tmp" % PAGE,
                    "thumbnails/%s.png.tmp" % PAGE, "assets/%s.png.tmp" % ASSET]:
            self.put(rel, b"partial")
        rep = self.check()
        self.assertEqual(self.kinds(rep), ["leftoverTemp"] * 5)
        self.assertEqual(rep.status, 4)

    def test_symlink_K018(self):
        self.make()
        os.symlink("/etc/passwd", os.path.join(self.path, "pages", PAGE + ".1.journal"))
        rep = self.check()
        self.assertEqual(self.kinds(rep), ["symlink"])

    def test_page_findings_K011(self):
        bad = bytearray(self.page_bytes)
        bad[64 + 30] ^= 1                                   # first frame's payload
        self.make(pages={PAGE: bytes(bad) + bytes(20)}, counts={PAGE: 2})
        rep = self.check()
        self.assertEqual(self.kinds(rep), ["badCRC"])
        self.assertEqual(self.kinds(rep, "info"), ["zeroFill"])
        f = [f for f in rep.findings if f["kind"] == "badCRC"][0]
        self.assertEqual((f["file"], f["offset"], f["action"]),
                         ("pages/%s.0.journal" % PAGE, 64, "unrepaired"))
        self.assertEqual(rep.pages[0]["state"], "damaged")
        self.assertEqual(rep.pages[0]["framesDropped"], 1)

    def test_check_changes_nothing(self):
        self.make()
        self.put(".lock", b"")
        self.put("pages/%s.content.tmp" % PAGE, b"x")

        def state():
            out = []
            for root, dirs, files in os.walk(self.path):
                for n in sorted(dirs + files):
                    st = os.lstat(os.path.join(root, n))
                    out.append((os.path.join(root, n), st.st_size, st.st_mtime_ns))
            return sorted(out)
        before = state()
        self.check()
        self.assertEqual(state(), before)

    def test_fsck_main_K002(self):
        self.make()
        with io.StringIO() as out:
            self.assertEqual(L.fsck_main([self.path], out), 0)
            self.assertEqual(out.getvalue(), "ok\n")                         # K-007
        os.remove(os.path.join(self.path, "manifest.json"))
        with io.StringIO() as out:
            self.assertEqual(L.fsck_main([self.path, "--json"], out), 4)
            self.assertEqual(json.loads(out.getvalue())["status"], 4)
        with io.StringIO() as out:                                          # a library
            self.assertEqual(L.fsck_main([self.tmp.name], out), 4)
        with io.StringIO() as out:
            self.assertEqual(L.fsck_main([os.path.join(self.tmp.name, "none.lnote")], out), 8)
        import contextlib
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(L.fsck_main(["--bogus"]), 16)


# ======================================================================================
# Conformance runner
# ======================================================================================

class TestJSONText(unittest.TestCase):
    """D-082: the JSON document.json and manifest.json are read as."""

    def ok(self, raw):
        return L.json_text(raw)

    def bad(self, raw):
        with self.assertRaises(ValueError, msg=repr(raw[:60])):
            L.json_text(raw)

    def test_accepted_D082(self):
        self.assertEqual(self.ok(b'\xef\xbb\xbf{"a":1}'), {"a": 1})
        self.assertEqual(self.ok(b' {"a":"\\ud83d\\ude00\\/"} '), {"a": "\U0001F600/"})
        self.assertEqual(self.ok(b'{"x":1e400}')["x"], math.inf)
        self.assertEqual(self.ok(b'{"x":-1' + b'0' * 5000 + b'}')["x"], -math.inf)
        self.assertEqual(self.ok(b'{"w":6120.0000000000000001}')["w"], 6120.0)
        self.assertEqual(self.ok(b'{"n":9007199254740993}')["n"], 9007199254740992)  # the nearest double
        self.ok(b'{"x":' + b'[' * 63 + b']' * 63 + b'}')
        self.ok(b'{"a":"[[{{"}')                      # brackets in strings do not nest

    def test_refused_D082(self):
        for raw in (b'{"a":1,"a":1}', b'{"a":1,"\\u0061":2}', b'[{"k":{"b":1,"b":2}}]',
                    b'{"x":' + b'[' * 64 + b']' * 64 + b'}', b'[' * 100000 + b']' * 100000,
                    '{"a":1}'.encode("utf-16"), '{"a":1}'.encode("utf-16-le"),
                    b'\xef\xbb\xbf\xef\xbb\xbf{}', b'{"a":"\\ud800"}', b'{"a":"\\udc00"}',
                    b'{"\\ud800":1}', b'[NaN]', b'[Infinity]', b'[-Infinity]', b'[1,]', b'{"a":1,}',
                    b'[01]', b'["\\q"]', b'["\xc0\xaf"]', b'["\xed\xa0\x80"]', b'["\xf4\x90\x80\x80"]',
                    b'{}{}', b'// c\n{}', b'\x0c{}', b"{'a':1}", b'["a\x01"]', b''):
            self.bad(raw)

    def test_document_and_manifest_D082(self):
        doc = {"format": "lnote.document", "version": 1, "id": str(uuid.UUID(int=1)), "title": "T",
               "created": "c", "modified": "m", "pages": []}
        raw = json.dumps(doc).encode()
        self.assertIsNotNone(L.parse_document(raw)[0])
        self.assertIsNotNone(L.parse_document(b'\xef\xbb\xbf' + raw)[0])
        twice = b'{"title":"T",' + raw[1:]
        d, why = L.parse_document(twice)
        self.assertIsNone(d)
        self.assertIn("twice", why)


class TestPageFileNames(unittest.TestCase):
    def test_journal_base_is_u64_J001(self):
        pid = "5a6e0000-0000-4000-8000-000000000001"
        self.assertEqual(L.parse_page_file(pid + ".18446744073709551615.journal"), ("journal", pid, (1 << 64) - 1))
        self.assertIsNone(L.parse_page_file(pid + ".18446744073709551616.journal"))
        self.assertIsNone(L.parse_page_file(pid + ".01.journal"))


def mixed_case(text, upper_from=0, upper_to=None):
    """`text` with the letters in [upper_from, upper_to) in uppercase."""
    upper_to = len(text) if upper_to is None else upper_to
    return text[:upper_from] + text[upper_from:upper_to].upper() + text[upper_to:]


class TestPageFileCase(unittest.TestCase):
    """P-024: page file names match the page id in any case; K-092: fsck reports a page
    file read under a name not in lowercase (pageFileCase) and a shadowed one
    (shadowedPageFile)."""

    def setUp(self):
        self.d = PageDir()
        self.addCleanup(self.d.tmp.cleanup)

    def test_parse_any_case_P024(self):
        up, mixed = PAGE.upper(), mixed_case(PAGE, 9, 19)
        self.assertNotEqual(up, PAGE)                       # PAGE has hex letters
        self.assertEqual(L.parse_page_file(up + ".content"), ("snapshot", PAGE, None))
        self.assertEqual(L.parse_page_file(mixed + ".3.journal"), ("journal", PAGE, 3))
        self.assertEqual(L.parse_page_file(PAGE + ".content.tmp"), ("tmp", PAGE, None))
        self.assertIsNone(L.parse_page_file(up + ".content.tmp"))        # temp: lowercase only
        self.assertIsNone(L.parse_page_file(mixed + ".content.tmp"))
        self.assertIsNone(L.parse_page_file(PAGE + ".CONTENT"))           # only the id's case
        self.assertIsNone(L.parse_page_file(PAGE + ".0.JOURNAL"))
        self.assertEqual(L.page_file_name(*L.parse_page_file(mixed + ".3.journal")),
                         PAGE + ".3.journal")
        # A name is its exact bytes: a trailing newline makes it no page file (Python's `$`
        # would have matched before it).
        for name in (PAGE + ".content\n", PAGE + ".1.journal\n", PAGE + ".content.tmp\n"):
            self.assertIsNone(L.parse_page_file(name), repr(name))
        self.assertIsNone(L.ANY_UUID_RE.match(PAGE + "\n"))

    def test_uppercase_snapshot_is_the_page_snapshot(self):
        snap, _ = snapshot(IDS[:2], generation=1, next_seq=4)
        self.d.put(PAGE.upper() + ".content", snap)
        self.d.put(PAGE + ".1.journal", journal(appends(SALT, 4, IDS[2:3]), base=1, first=4))
        pr = self.d.recover("strict")
        self.assertEqual((pr.page.ids(), pr.generation, pr.next_sequence, pr.refused),
                         (IDS[:3], 1, 5, False))
        self.assertEqual((pr.findings, pr.shadowed, pr.not_lowercase),
                         ([], [], [PAGE.upper() + ".content"]))
        # The page id given in any case is the same page.
        pr = L.recover_page(self.d.dir, "salvage", PAGE.upper())
        self.assertEqual(pr.page.ids(), IDS[:3])

    def test_mixed_case_journals_are_read(self):
        j0 = mixed_case(PAGE, 0, 8) + ".0.journal"
        j1 = mixed_case(PAGE, 24) + ".1.journal"
        self.d.put(j0, journal(appends(SALT, 1, IDS[:2])))
        self.d.put(j1, journal(appends(SALT, 3, IDS[2:4]), base=1, first=3))
        pr = self.d.recover("strict")
        self.assertEqual((pr.page.ids(), pr.next_sequence, pr.finding_kinds()), (IDS[:4], 5, []))
        self.assertEqual((pr.shadowed, pr.not_lowercase), ([], sorted([j0, j1])))

    def test_lowercase_preferred_over_twin(self):
        lower, upper = PAGE + ".0.journal", PAGE.upper() + ".0.journal"
        self.d.put(lower, journal(appends(SALT, 1, IDS[:2])))
        self.d.put(upper, b"not read: would be a badHeader")
        snap, _ = snapshot(IDS[5:6], generation=1, next_seq=1)
        self.d.put(PAGE + ".content", journal(appends(SALT, 1, IDS[6:7])))
        self.d.put(mixed_case(PAGE, 0, 4) + ".content", snap)
        pr = self.d.recover("strict")
        # The lowercase names are read, damaged as one of them is (a journal where the
        # snapshot belongs); the other spellings are not.
        self.assertTrue(pr.refused)
        pr = self.d.recover()
        self.assertEqual({n for n, _ in pr.findings}, {PAGE + ".content"})
        self.assertEqual(pr.page.ids(), IDS[:2])
        self.assertEqual((pr.shadowed, pr.not_lowercase),
                         (sorted([upper, mixed_case(PAGE, 0, 4) + ".content"]), []))

    def test_byte_order_first_of_non_lowercase_twins(self):
        # "0F1E2d3c-..." < "0f1E2D3C-..." in byte order ('F' 0x46 < 'f' 0x66): the first
        # is read though more of the other is in uppercase.
        first = mixed_case(PAGE, 0, 4) + ".0.journal"
        second = mixed_case(PAGE, 3) + ".0.journal"
        self.assertLess(first.encode(), second.encode())
        self.d.put(second, journal(appends(SALT, 1, IDS[5:7])))
        self.d.put(first, journal(appends(SALT, 1, IDS[:2])))
        for names in ([second, first], [first, second]):
            pr = L.recover_page(self.d.dir, "strict", None, names)
            self.assertEqual(pr.page.ids(), IDS[:2])
            self.assertEqual((pr.shadowed, pr.not_lowercase), ([second], [first]))
        snap_a, _ = snapshot(IDS[:1], generation=1, next_seq=1)
        snap_b, _ = snapshot(IDS[1:2], generation=1, next_seq=1)
        snaps = [mixed_case(PAGE, 1, 2) + ".content", PAGE.upper() + ".content"]
        self.d.put(snaps[0], snap_b)
        self.d.put(snaps[1], snap_a)                        # all upper: first in byte order
        pr = L.recover_page(self.d.dir, "strict", PAGE, snaps)
        self.assertEqual((pr.page.ids(), pr.generation, pr.finding_kinds()), (IDS[:1], 1, []))
        self.assertEqual((pr.shadowed, pr.not_lowercase), ([snaps[0]], [snaps[1]]))

    def test_uppercase_temp_is_not_a_page_file(self):
        self.d.put(PAGE + ".0.journal", journal(appends(SALT, 1, IDS[:1])))
        self.d.put(PAGE.upper() + ".content.tmp", b"partial")
        pr = self.d.recover()
        self.assertEqual((pr.page.ids(), pr.findings), (IDS[:1], []))
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        path = os.path.join(tmp.name, DOC_ID + ".lnote")
        make_package(path, {PAGE: journal(appends(SALT, 1, IDS[:1]))}, counts={PAGE: 1})
        with open(os.path.join(path, "pages", PAGE.upper() + ".content.tmp"), "wb") as f:
            f.write(b"partial")
        rep = L.check_package(path)
        self.assertEqual([(f["kind"], f["severity"], f["file"]) for f in rep.findings],
                         [("unknownFile", "info", "pages/%s.content.tmp" % PAGE.upper())])
        self.assertEqual(rep.status, 0)

    def package(self, pages, listed):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        path = os.path.join(tmp.name, DOC_ID + ".lnote")
        make_package(path, pages, listed=listed, counts={PAGE: 4})
        return path

    def put(self, path, name, data):
        with open(os.path.join(path, "pages", name), "wb") as f:
            f.write(data)

    def test_check_reports_case_and_shadowed_K092(self):
        path = self.package({PAGE: journal(appends(SALT, 1, IDS[:3]))}, [PAGE])
        shadowed = PAGE.upper() + ".0.journal"
        case = mixed_case(PAGE, 0, 8) + ".1.journal"
        self.put(path, shadowed, b"not read: would be a badHeader")
        self.put(path, case, journal(appends(SALT, 4, IDS[3:4]), base=1, first=4))
        rep = L.check_package(path)
        self.assertEqual([(f["kind"], f["severity"], f["file"], f["action"]) for f in rep.findings],
                         [("shadowedPageFile", "error", "pages/" + shadowed, "unrepaired"),
                          ("pageFileCase", "info", "pages/" + case, "none")])
        self.assertTrue(all("K-092" in f["detail"] for f in rep.findings))
        self.assertEqual(rep.status, 4)
        self.assertEqual(rep.error_kinds(), ["shadowedPageFile"])
        self.assertEqual((rep.pages[0]["id"], rep.pages[0]["elements"], rep.pages[0]["state"]),
                         (PAGE, 4, "ok"))
        self.assertEqual(rep.page_elements[PAGE], IDS[:4])
        # Without document.json (K-029) the pages present are checked the same way.
        os.remove(os.path.join(path, "document.json"))
        kinds = sorted(f["kind"] for f in L.check_package(path).findings)
        self.assertEqual(kinds, ["documentMissing", "pageFileCase", "shadowedPageFile"])

    def test_unlisted_page_reports_every_file_K013(self):
        other = "abcdef00-0000-4000-8000-0000000000bb"
        path = self.package({PAGE: journal(appends(SALT, 1, IDS[:4]))}, [PAGE])
        names = [other + ".0.journal", other.upper() + ".0.journal", mixed_case(other, 0, 2) + ".content"]
        for n in names:
            self.put(path, n, b"x")
        rep = L.check_package(path)
        self.assertEqual(sorted((f["kind"], f["file"]) for f in rep.findings),
                         sorted(("unlistedPage", "pages/" + n) for n in names))
        self.assertTrue(all(other in f["detail"] for f in rep.findings))   # the lowercase id

    def test_single_file_any_case_K017(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, PAGE.upper() + ".0.journal")
            with open(path, "wb") as f:
                f.write(journal(appends(SALT, 1, IDS[:2])))
            rep = L.check_file(path)
            self.assertEqual((rep.status, rep.findings, rep.pages[0]["id"]), (0, [], PAGE))


class TestNameText(unittest.TestCase):
    """D-035: names that are not UTF-8 are text by their bytes, and give them back."""

    def text(self, raw):
        return L.name_text(os.fsdecode(raw))

    def test_bytes_D035(self):
        self.assertEqual(self.text(b"a\xffb"), "a\U0010ffffb")
        self.assertEqual(self.text(b"\xc3"), "\U0010ffc3")
        self.assertEqual(self.text(b"caf\xc3\xa9"), "caf\u00e9")
        self.assertEqual(self.text(b"\xed\xa0\x80"), "\U0010ffed\U0010ffa0\U0010ff80")
        # A name that is not UTF-8 shows every byte >= 0x80, its valid sequences too.
        self.assertEqual(self.text(b"\xc3\xa9\xff"), "\U0010ffc3\U0010ffa9\U0010ffff")
        # A valid sequence of one of the 128 code points stands for bytes: shown byte by byte.
        self.assertEqual(self.text(b"\xf4\x8f\xbf\xbf"), "\U0010fff4\U0010ff8f\U0010ffbf\U0010ffbf")

    def test_round_trip_D035(self):
        import random
        rng = random.Random(35)
        pool = [0x61, 0x2E, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0xF4, 0x8F, 0xBE, 0xBF, 0x80, 0xFF, 0xC0]
        for _ in range(5000):
            raw = bytes(rng.choice(pool) if rng.random() < 0.7 else rng.randrange(1, 256) for _ in range(rng.randrange(1, 20)))
            raw = raw.replace(b"/", b"0")
            t = self.text(raw)
            back = b"".join(bytes([ord(c) - 0x10FF00]) if 0x10FF80 <= ord(c) <= 0x10FFFF else c.encode() for c in t)
            self.assertEqual(back, raw)


class TestRunner(unittest.TestCase):
    def test_manifest(self):
        with tempfile.TemporaryDirectory() as vd:
            def put(name, data):
                with open(os.path.join(vd, name), "wb") as f:
                    f.write(data)
            fr = appends(SALT, 1, IDS[:2])
            put("ok-two.journal", journal(fr))
            put("torn-zero.journal", journal(fr) + bytes(12))
            snap, _ = snapshot(IDS[:1], generation=3, next_seq=9)
            put("ok-one.content", snap)
            put("ok-one-point.points", encode_points([(1, 2, 3, 4, 0)]))
            put("bad-overflow.points", svarint(1 << 31) + bytes(4))
            os.makedirs(os.path.join(vd, "ok-page"))
            put(os.path.join("ok-page", PAGE + ".0.journal"), journal(fr))
            make_package(os.path.join(vd, "ok-pkg.lnote"), {PAGE: journal(fr)})
            n = len(journal(fr))
            vectors = [
                {"name": "ok-two.journal", "kind": "journal", "mode": "strict", "rules": ["J-010"],
                 "expect": {"refused": False, "headerValid": True, "validEnd": n,
                            "frames": [{"sequence": 1, "type": 1, "offset": 64},
                                       {"sequence": 2, "type": 1, "offset": 64 + len(fr[0])}],
                            "findings": [], "elements": [i.upper() for i in IDS[:2]]}},
                {"name": "torn-zero.journal", "kind": "journal", "mode": "salvage",
                 "expect": {"validEnd": n, "findings": [fj("zeroFill", n, 12, True)]}},
                {"name": "ok-one.content", "kind": "snapshot", "mode": "salvage",
                 "expect": {"generation": 3, "nextSequence": 9, "elements": IDS[:1],
                            "findings": [], "refused": False, "headerValid": True}},
                {"name": "ok-one-point.points", "kind": "points", "count": 1,
                 "hasAngles": False, "expect": {"points": [[1, 2, 3, 4, 0]]}},
                {"name": "bad-overflow.points", "kind": "points", "count": 1,
                 "hasAngles": False, "expect": {"error": True}},
                {"name": "ok-page", "kind": "page", "mode": "salvage",
                 "expect": {"elements": IDS[:2], "nextSequence": 3, "generation": 0,
                            "refused": False, "findingKinds": []}},
                {"name": "ok-pkg.lnote", "kind": "package",
                 "expect": {"fsckExit": 0, "pages": [{"id": PAGE, "elements": IDS[:2]}],
                            "findingKinds": []}},
            ]
            with open(os.path.join(vd, "manifest.json"), "w") as f:
                json.dump({"vectors": vectors}, f)
            out = io.StringIO()
            self.assertTrue(L.run_conformance(vd, out))
            lines = out.getvalue().splitlines()
            self.assertEqual(lines[-1], "7 passed, 0 failed")
            self.assertIn("ok ok-two.journal", lines)
            # A wrong expectation fails with a reason, and the status says so.
            vectors[0]["expect"]["validEnd"] = n + 1
            vectors[3]["expect"]["points"] = [[1, 2, 3, 4, 1]]
            with open(os.path.join(vd, "manifest.json"), "w") as f:
                json.dump({"vectors": vectors[:4]}, f)
            out = io.StringIO()
            self.assertFalse(L.run_conformance(vd, out))
            lines = out.getvalue().splitlines()
            self.assertTrue(lines[0].startswith("FAIL ok-two.journal: validEnd"))
            self.assertTrue(lines[3].startswith("FAIL ok-one-point.points: points differ"))
            self.assertEqual(lines[-1], "2 passed, 2 failed")
            # main() exit status
            import contextlib
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(L.main([vd]), 1)
            with contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(L.main([os.path.join(vd, "nothing")]), 2)

    def test_dump(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "j")
            with open(p, "wb") as f:
                f.write(journal(appends(SALT, 1, IDS[:2])) + bytes(9))
            out = io.StringIO()
            L.dump(p, out=out)
            text = out.getvalue()
            self.assertIn("elementAppend", text)
            self.assertIn("TORN", text)
            self.assertIn("validEnd", text)


if __name__ == "__main__":
    unittest.main()
