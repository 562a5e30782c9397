"""card_art: the Python issuer's card art, drawn at run time: a 1536 x 969 RGB PNG (Wallet's
card art size) written with zlib, standard library only. Shipped inside PyNonUIExt.appex.

Every shape is made of whole-row spans (no per-pixel Python loop), so a card takes a few
tens of milliseconds; PyNonUIExt draws each card once per process and keeps the bytes.
"""
import struct
import threading
import zlib

WIDTH, HEIGHT = 1536, 969

# Palette name (the card's "art" in cards.json) -> top and bottom of the background, accent.
PALETTES = {
    "indigo": ((40, 44, 120), (12, 14, 48), (255, 196, 64)),
    "amber": ((214, 120, 20), (120, 46, 8), (255, 240, 200)),
    "slate": ((70, 78, 92), (24, 28, 36), (180, 200, 220)),
}
DEFAULT_PALETTE = "slate"

# A 5 x 7 font for what the cards say: each glyph is 7 rows of 5 bits, most significant first.
FONT = {
    " ": (0, 0, 0, 0, 0, 0, 0),
    "*": (0, 0, 14, 14, 14, 0, 0),
    "0": (14, 17, 19, 21, 25, 17, 14), "1": (4, 12, 4, 4, 4, 4, 14), "2": (14, 17, 1, 2, 4, 8, 31),
    "3": (31, 2, 4, 2, 1, 17, 14), "4": (2, 6, 10, 18, 31, 2, 2), "5": (31, 16, 30, 1, 1, 17, 14),
    "6": (6, 8, 16, 30, 17, 17, 14), "7": (31, 1, 2, 4, 8, 8, 8), "8": (14, 17, 17, 14, 17, 17, 14),
    "9": (14, 17, 17, 15, 1, 2, 12),
    "A": (14, 17, 17, 31, 17, 17, 17), "C": (14, 17, 16, 16, 16, 17, 14), "D": (28, 18, 17, 17, 17, 18, 28),
    "E": (31, 16, 16, 30, 16, 16, 31), "H": (17, 17, 17, 31, 17, 17, 17), "I": (14, 4, 4, 4, 4, 4, 14),
    "M": (17, 27, 21, 21, 17, 17, 17), "N": (17, 17, 25, 21, 19, 17, 17), "O": (14, 17, 17, 17, 17, 17, 14),
    "P": (30, 17, 17, 30, 16, 16, 16), "R": (30, 17, 17, 30, 20, 18, 17), "S": (15, 16, 16, 14, 1, 1, 30),
    "T": (31, 4, 4, 4, 4, 4, 4), "U": (17, 17, 17, 17, 17, 17, 14), "V": (17, 17, 17, 17, 17, 10, 4),
    "Y": (17, 17, 10, 4, 4, 4, 4),
}


class Canvas:
    def __init__(self, top, bottom):
        self.rows = []
        for y in range(HEIGHT):
            color = _mix(top, bottom, y / (HEIGHT - 1))
            self.rows.append(bytearray(bytes(color) * WIDTH))

    def span(self, y, x0, x1, color):
        """Paints pixels x0 ..< x1 of row y (clipped to the canvas)."""
        if 0 <= y < HEIGHT:
            x0, x1 = max(0, int(x0)), min(WIDTH, int(x1))
            if x1 > x0:
                self.rows[y][x0 * 3:x1 * 3] = bytes(color) * (x1 - x0)

    def rounded_rect(self, x0, y0, x1, y1, radius, color):
        for y in range(y0, y1):
            inset = 0
            dy = max(y0 + radius - y, y - (y1 - 1 - radius), 0)
            if dy:
                inset = radius - int((radius * radius - dy * dy) ** 0.5)
            self.span(y, x0 + inset, x1 - inset, color)

    def circle(self, cx, cy, radius, color):
        for y in range(cy - radius, cy + radius + 1):
            half = int((radius * radius - (y - cy) ** 2) ** 0.5)
            self.span(y, cx - half, cx + half + 1, color)

    def text(self, x, y, text, scale, color):
        for index, character in enumerate(text.upper()):
            glyph = FONT.get(character, FONT[" "])
            left = x + index * 6 * scale
            for row, bits in enumerate(glyph):
                for column in range(5):
                    if bits & (16 >> column):
                        for line in range(y + row * scale, y + (row + 1) * scale):
                            self.span(line, left + column * scale, left + (column + 1) * scale, color)

    def png(self):
        # Row by row into the compressor (filter type 0 on every row), so the 4.5 MB of raw
        # pixels never exist twice: the extension's memory limit is 55 MB.
        compressor = zlib.compressobj(9)
        parts = [compressor.compress(b"\x00" + row) for row in self.rows]
        parts.append(compressor.flush())
        header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 2, 0, 0, 0)  # 8-bit RGB
        return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", b"".join(parts))
                + _chunk(b"IEND", b""))


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def _mix(a, b, t):
    return tuple(int(round(a[i] + (b[i] - a[i]) * t)) for i in range(3))


def draw(palette, suffix, network):
    """The PNG bytes of one card."""
    top, bottom, accent = PALETTES.get(palette, PALETTES[DEFAULT_PALETTE])
    canvas = Canvas(top, bottom)
    # A diagonal sheen across the card.
    for y in range(HEIGHT):
        base = _mix(top, bottom, y / (HEIGHT - 1))
        canvas.span(y, 860 - y * 0.45, 1120 - y * 0.45, _mix(base, (255, 255, 255), 0.07))
    white = (250, 250, 250)
    canvas.text(120, 110, "PYTHON ISSUER", 9, white)
    # The chip, with its contact lines.
    gold, line = (214, 178, 92), (160, 126, 52)
    canvas.rounded_rect(130, 330, 330, 480, 26, gold)
    for y in (380, 430):
        canvas.span(y, 130, 330, line)
        canvas.span(y + 1, 130, 330, line)
    for y in range(336, 474):
        canvas.span(y, 229, 232, line)
    canvas.text(130, 600, "**** " + suffix[-4:], 10, white)
    canvas.text(130, 760, network[:12], 7, accent)
    # The network mark: two overlapping discs.
    canvas.circle(1190, 800, 92, accent)
    canvas.circle(1310, 800, 92, _mix(accent, (255, 255, 255), 0.45))
    return canvas.png()


_cache = {}
_cache_lock = threading.Lock()


def card_png(palette, suffix, network):
    """draw(), once per card and process: the process is reused across calls."""
    key = (palette, suffix, network)
    with _cache_lock:
        if key not in _cache:
            _cache[key] = draw(palette, suffix, network)
        return _cache[key]
