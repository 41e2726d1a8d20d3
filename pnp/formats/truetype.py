"""Cut the hinting out of a TrueType font program, as bytes.

Hinting (the fpgm, prep and cvt programs and each glyph's instructions) only steers
low-resolution screen rasterizers; no PDF viewer and no printer needs it, and it is a
third of an embedded subset. The cut works on the font's tables as they are: glyph
records lose their instruction bytes and nothing else (no outline is re-encoded), the
other tables are copied byte for byte, so the same font gives the same bytes. It runs
once per embedded font of every PDF, which is why it is not done through fontTools:
importing and parsing with it cost a poker-deck build a fifth of its time.
"""

from __future__ import annotations

import struct

HINTING = (b"fpgm", b"prep", b"cvt ", b"hdmx", b"LTSH", b"VDMX")
# maxp 1.0 fields from maxZones to maxSizeOfInstructions (offset 14): what is left without hinting
_MAXP_UNHINTED = struct.pack(">7H", 1, 0, 0, 0, 0, 0, 0)
# the order fontTools writes a TrueType font's tables in (the OpenType recommendation); the rest after, by tag
_ORDER = (b"head", b"hhea", b"maxp", b"OS/2", b"hmtx", b"LTSH", b"VDMX", b"hdmx", b"cmap", b"fpgm", b"prep", b"cvt ",
          b"loca", b"glyf", b"kern", b"name", b"post", b"gasp", b"PCLT")


def without_instructions(glyph: bytes) -> bytes:
    """A glyph record with its hinting instructions cut out (outline bytes untouched)."""
    if len(glyph) < 10:
        return glyph  # an empty glyph
    contours = int.from_bytes(glyph[:2], "big", signed=True)
    if contours >= 0:  # simple: header, contour ends, instruction length and bytes, then the points
        at = 10 + 2 * contours
        length = int.from_bytes(glyph[at:at + 2], "big")
        if not length:
            return glyph
        start = end = at + 2 + length
        points = int.from_bytes(glyph[at - 2:at], "big") + 1 if contours else 0
        coordinates = 0
        while points > 0:  # the flags say how many bytes of coordinates follow (the padding is left out)
            flag, repeat = glyph[end], 1
            end += 1
            if flag & 0x8:  # REPEAT_FLAG
                repeat += glyph[end]
                end += 1
            coordinates += repeat * ((1 if flag & 0x2 else 0 if flag & 0x10 else 2) + (1 if flag & 0x4 else 0 if flag & 0x20 else 2))
            points -= repeat
        return glyph[:at] + b"\0\0" + glyph[start:end + coordinates]
    out, at, flags = bytearray(glyph[:10]), 10, 0x20
    while flags & 0x20:  # MORE_COMPONENTS
        flags = int.from_bytes(glyph[at:at + 2], "big")
        size = 4 + (4 if flags & 0x1 else 2) + (2 if flags & 0x8 else 4 if flags & 0x40 else 8 if flags & 0x80 else 0)
        out += (flags & ~0x100).to_bytes(2, "big") + glyph[at + 2:at + size]  # WE_HAVE_INSTRUCTIONS off
        at += size
    return bytes(out)


def _tables(data: bytes) -> tuple[bytes, dict[bytes, bytes]] | None:
    """The sfnt version and the tables of a font file by tag; None if it is not one."""
    if len(data) < 12:
        return None
    version, count = data[:4], int.from_bytes(data[4:6], "big")
    if version not in (b"\0\1\0\0", b"true", b"OTTO") or len(data) < 12 + 16 * count:
        return None
    tables = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * i)
        if offset + length > len(data):
            return None
        tables[tag] = data[offset:offset + length]
    return version, tables


def _checksum(data: bytes) -> int:
    padded = data + b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(padded) // 4}L", padded)) & 0xFFFFFFFF


def _font(version: bytes, tables: dict[bytes, bytes]) -> bytes:
    """A font file of `tables`: directory by tag, data in the recommended order, each
    table padded to 4 bytes, checksums and head's checkSumAdjustment set."""
    count = len(tables)
    power = 1 << (count.bit_length() - 1)
    header = version + struct.pack(">4H", count, power * 16, power.bit_length() - 1, count * 16 - power * 16)
    order = [tag for tag in _ORDER if tag in tables] + sorted(tag for tag in tables if tag not in _ORDER)
    if b"head" in tables:
        head = tables[b"head"]
        tables = {**tables, b"head": head[:8] + b"\0\0\0\0" + head[12:]}
    offsets, at = {}, len(header) + 16 * count
    for tag in order:
        offsets[tag] = at
        at += len(tables[tag]) + (-len(tables[tag]) % 4)
    directory = b"".join(struct.pack(">4sLLL", tag, _checksum(tables[tag]), offsets[tag], len(tables[tag])) for tag in sorted(tables))
    body = b"".join(tables[tag] + b"\0" * (-len(tables[tag]) % 4) for tag in order)
    out = bytearray(header + directory + body)
    if b"head" in tables:
        adjustment = (0xB1B0AFBA - _checksum(bytes(out))) & 0xFFFFFFFF
        struct.pack_into(">L", out, offsets[b"head"] + 8, adjustment)
    return bytes(out)


def unhinted(data: bytes) -> bytes:
    """The font program `data` without its hinting; `data` itself when it is not a font
    file this can read (a collection, a damaged table or glyph record)."""
    found = _tables(data)
    if found is None:
        return data
    version, tables = found
    tables = {tag: table for tag, table in tables.items() if tag not in HINTING}
    maxp = tables.get(b"maxp", b"")
    if len(maxp) >= 28 and maxp[:4] == b"\0\1\0\0":
        tables[b"maxp"] = maxp[:14] + _MAXP_UNHINTED + maxp[28:]
    if all(tag in tables for tag in (b"glyf", b"loca", b"head", b"maxp")):
        try:
            glyphs = _glyphs_unhinted(tables)
        except (IndexError, struct.error):  # a glyph record cut short: left as it was
            glyphs = None
        if glyphs is None:
            return data
        tables.update(glyphs)
    return _font(version, tables)


def _glyphs_unhinted(tables: dict[bytes, bytes]) -> dict[bytes, bytes] | None:
    """New glyf, loca, head and hhea tables: glyph records without instructions (loca in
    its own format), and the font-wide bounds of head and hhea taken over the glyphs the
    font holds (a subset keeps the whole font's; renderers place glyphs by them)."""
    head, glyf, loca = tables[b"head"], tables[b"glyf"], tables[b"loca"]
    glyph_count = int.from_bytes(tables[b"maxp"][4:6], "big")
    long_offsets = int.from_bytes(head[50:52], "big", signed=True) == 1
    size = 4 if long_offsets else 2
    if len(head) < 54 or len(loca) < size * (glyph_count + 1):
        return None
    starts = struct.unpack_from(f">{glyph_count + 1}{'L' if long_offsets else 'H'}", loca)
    scale = 1 if long_offsets else 2
    records, boxes = [], {}
    for index in range(glyph_count):
        start, end = starts[index] * scale, starts[index + 1] * scale
        if end < start or end > len(glyf):
            return None
        record = without_instructions(glyf[start:end])
        if len(record) >= 10:
            boxes[index] = struct.unpack_from(">4h", record, 2)
        records.append(record + b"\0" * (-len(record) % size))
    new_loca, at = [], 0
    for record in records:
        new_loca.append(at // scale)
        at += len(record)
    new_loca.append(at // scale)
    out = {b"glyf": b"".join(records), b"loca": struct.pack(f">{glyph_count + 1}{'L' if long_offsets else 'H'}", *new_loca)}
    if not boxes:
        return out
    bounds = (min(b[0] for b in boxes.values()), min(b[1] for b in boxes.values()),
              max(b[2] for b in boxes.values()), max(b[3] for b in boxes.values()))
    out[b"head"] = head[:36] + struct.pack(">4h", *bounds) + head[44:]
    hhea, hmtx = tables.get(b"hhea", b""), tables.get(b"hmtx", b"")
    if len(hhea) >= 36:
        metrics_count = int.from_bytes(hhea[34:36], "big")
        if 0 < metrics_count <= glyph_count and len(hmtx) >= 4 * metrics_count + 2 * (glyph_count - metrics_count):
            long_metrics = struct.unpack_from(f">{2 * metrics_count}h", hmtx)
            advances = [long_metrics[2 * i] & 0xFFFF for i in range(metrics_count)]
            bearings = list(long_metrics[1::2]) + list(struct.unpack_from(f">{glyph_count - metrics_count}h", hmtx, 4 * metrics_count))
            advances += [advances[-1]] * (glyph_count - metrics_count)
            drawn = [(advances[i], bearings[i], box) for i, box in boxes.items()]
            fields = (max(advances), min(lsb for _, lsb, _ in drawn),
                      min(advance - lsb - (box[2] - box[0]) for advance, lsb, box in drawn),
                      max(lsb + box[2] - box[0] for _, lsb, box in drawn))
            out[b"hhea"] = hhea[:10] + struct.pack(">H3h", *fields) + hhea[18:]
    return out
