#!/usr/bin/env python3
"""Draws the sample issuer's card art: 1536 x 969 PNG files, standard library only.

Wallet's rules for card art: 1536 x 969 pixels, landscape, square corners, under 4 MB,
no personal data (no name, no card number). Each design is a gradient with a chip, a
stripe and a two-circle mark; rows use PNG's "Up" filter (the first one "Sub"), so repeated
rows become zeros and the files compress to a few KB.

    python3 make_card_art.py                 # writes card-*.png next to this script
    python3 make_card_art.py --plain-base64  # prints a small plain card as base64
                                             # (embedded in Examples/TestHelperExt)
The PNG files are committed; run this again only to change the designs.
"""
import os
import struct
import sys
import zlib

WIDTH, HEIGHT = 1536, 969

# name: (gradient start, gradient end, stripe, mark left, mark right)
DESIGNS = {
    "card-ocean": ((12, 52, 120), (40, 132, 200), (230, 236, 245), (235, 80, 60), (250, 175, 45)),
    "card-forest": ((18, 78, 52), (92, 160, 96), (236, 240, 228), (40, 90, 170), (120, 190, 235)),
    "card-graphite": ((28, 28, 34), (96, 96, 110), (205, 180, 120), (200, 200, 210), (150, 150, 165)),
}

CHIP = (200, 165, 90)


def chunk(kind, payload):
    body = kind + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(width, height, rows, color_type=2, bit_depth=8):
    """rows: iterable of already-filtered scanlines (filter byte first)."""
    header = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    data = zlib.compress(b"".join(rows), 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def up_filter(pixels, above):
    """PNG filter 2 (Up): each byte minus the byte above; zero wherever a row repeats."""
    return b"\x02" + bytes((a - b) & 0xFF for a, b in zip(pixels, above))


def sub_filter(pixels):
    """PNG filter 1 (Sub) for an RGB scanline given as a bytearray."""
    out = bytearray(b"\x01")
    previous = (0, 0, 0)
    for x in range(0, len(pixels), 3):
        current = pixels[x:x + 3]
        out += bytes((current[i] - previous[i]) & 0xFF for i in range(3))
        previous = current
    return bytes(out)


def draw(design):
    start, end, stripe, mark_left, mark_right = design
    background = bytearray()
    for x in range(WIDTH):
        t = x / (WIDTH - 1)
        background += bytes(round(start[i] + (end[i] - start[i]) * t) for i in range(3))
    chip = (150, 360, 400, 540)          # x0, y0, x1, y1
    stripe_rows = range(700, 760)
    circles = ((1200, 820, 90, mark_left), (1320, 820, 90, mark_right))
    rows = []
    above = None
    for y in range(HEIGHT):
        line = bytearray(background)
        if y in stripe_rows:
            line[:] = bytes(stripe) * WIDTH
        if chip[1] <= y < chip[3]:
            line[chip[0] * 3:chip[2] * 3] = bytes(CHIP) * (chip[2] - chip[0])
        for cx, cy, r, color in circles:
            dy = y - cy
            if abs(dy) < r:
                half = int((r * r - dy * dy) ** 0.5)
                line[(cx - half) * 3:(cx + half) * 3] = bytes(color) * (2 * half)
        rows.append(sub_filter(line) if above is None else up_filter(line, above))
        above = line
    return png(WIDTH, HEIGHT, rows)


def plain_card():
    """A one-bit grey card: every row is the same, so it compresses to a few hundred bytes."""
    palette = chunk(b"PLTE", bytes((90, 90, 100, 200, 200, 210)))
    row = b"\x00" + b"\x00" * ((WIDTH + 7) // 8)
    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 1, 3, 0, 0, 0)
    data = zlib.compress(row * HEIGHT, 9)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + palette + chunk(b"IDAT", data)
            + chunk(b"IEND", b""))


def main():
    if "--plain-base64" in sys.argv:
        import base64
        print(base64.b64encode(plain_card()).decode("ascii"))
        return
    here = os.path.dirname(os.path.abspath(__file__))
    for name, design in DESIGNS.items():
        path = os.path.join(here, name + ".png")
        data = draw(design)
        with open(path, "wb") as file:
            file.write(data)
        print(f"{path}: {WIDTH} x {HEIGHT}, {len(data)} bytes")


if __name__ == "__main__":
    main()
