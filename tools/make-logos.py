#!/usr/bin/env python3
"""Draw the MiniTorch kernel logo: kernelspec/logo-32x32.png, logo-64x64.png and logo-svg.svg.

The design is a white torch on a warm orange rounded square: a teardrop flame with a yellow
core, above a cup (rim + tapered handle). Every shape is plain geometry in a 64x64 design
space, so the PNGs (rasterised here by supersampling, standard library only: zlib + struct)
and the SVG come from the same numbers. Run from anywhere: python3 tools/make-logos.py
"""

import math
import os
import struct
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "kernelspec")

ORANGE = (0xEE, 0x4C, 0x2C)
WHITE = (0xFF, 0xFF, 0xFF)
YELLOW = (0xFF, 0xC1, 0x3B)

# --- geometry (64x64 design units) -------------------------------------------------------------
BG = (2.0, 2.0, 62.0, 62.0, 13.0)          # rounded square: x0, y0, x1, y1, corner radius
FLAME = ((33.5, 5.0), (32.0, 29.0), 11.0)  # teardrop: tip, circle centre, radius
CORE = ((32.8, 17.0), (32.0, 31.0), 5.2)   # inner flame
RIM = [(19.0, 42.0), (45.0, 42.0), (43.0, 46.0), (21.0, 46.0)]
HANDLE = [(23.0, 48.0), (41.0, 48.0), (35.5, 58.0), (28.5, 58.0)]


def teardrop_polygon(tip, centre, r):
    """Tip and the two tangent points from the tip to the circle."""
    (tx, ty), (cx, cy) = tip, centre
    d = math.hypot(tx - cx, ty - cy)
    base = math.atan2(ty - cy, tx - cx)
    a = math.acos(r / d)
    p1 = (cx + r * math.cos(base + a), cy + r * math.sin(base + a))
    p2 = (cx + r * math.cos(base - a), cy + r * math.sin(base - a))
    return [tip, p1, p2]


def in_polygon(x, y, pts):
    inside = False
    n = len(pts)
    for i in range(n):
        (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def in_teardrop(x, y, shape):
    tip, (cx, cy), r = shape
    if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
        return True
    return in_polygon(x, y, teardrop_polygon(tip, (cx, cy), r))


def in_rounded_rect(x, y, rect):
    x0, y0, x1, y1, r = rect
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    qx = min(max(x, x0 + r), x1 - r)
    qy = min(max(y, y0 + r), y1 - r)
    return (x - qx) ** 2 + (y - qy) ** 2 <= r * r


def sample(x, y):
    """Colour (r, g, b, a) of the design at one point."""
    if not in_rounded_rect(x, y, BG):
        return (0, 0, 0, 0)
    if in_teardrop(x, y, CORE):
        return YELLOW + (255,)
    if in_teardrop(x, y, FLAME) or in_polygon(x, y, RIM) or in_polygon(x, y, HANDLE):
        return WHITE + (255,)
    return ORANGE + (255,)


def render(size, ss=8):
    """RGBA rows, antialiased with ss x ss samples per pixel (premultiplied averaging)."""
    scale = 64.0 / size
    rows = []
    for py in range(size):
        row = bytearray()
        for px in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(ss):
                for sx in range(ss):
                    x = (px + (sx + 0.5) / ss) * scale
                    y = (py + (sy + 0.5) / ss) * scale
                    r, g, b, a = sample(x, y)
                    acc[0] += r * a
                    acc[1] += g * a
                    acc[2] += b * a
                    acc[3] += a
            n = ss * ss
            alpha = acc[3] / n
            if acc[3]:
                rgb = [round(c / acc[3]) for c in acc[:3]]
            else:
                rgb = [0, 0, 0]
            row += bytes(rgb + [round(alpha)])
        rows.append(bytes(row))
    return rows


def write_png(path, rows):
    height, width = len(rows), len(rows[0]) // 4

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + r for r in rows)  # filter type 0 per row
    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))  # 8-bit RGBA
    png += chunk(b"IDAT", zlib.compress(raw, 9))
    png += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def svg_teardrop(shape, colour):
    tip, centre, r = shape
    t, p1, p2 = teardrop_polygon(tip, centre, r)
    f = lambda v: f"{v:.2f}".rstrip("0").rstrip(".")
    # tip -> p1, the long way round the circle to p2, back to the tip
    return (f'  <path fill="{colour}" d="M{f(t[0])} {f(t[1])} L{f(p1[0])} {f(p1[1])} '
            f'A{f(r)} {f(r)} 0 1 1 {f(p2[0])} {f(p2[1])} Z"/>\n')


def svg_polygon(pts, colour):
    coords = " ".join(f"{x:g},{y:g}" for x, y in pts)
    return f'  <polygon fill="{colour}" points="{coords}"/>\n'


def hexcolour(c):
    return "#%02x%02x%02x" % c


def write_svg(path):
    x0, y0, x1, y1, r = BG
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">\n'
           '  <title>MiniTorch</title>\n'
           f'  <rect x="{x0:g}" y="{y0:g}" width="{x1 - x0:g}" height="{y1 - y0:g}" rx="{r:g}" '
           f'fill="{hexcolour(ORANGE)}"/>\n')
    svg += svg_teardrop(FLAME, hexcolour(WHITE))
    svg += svg_teardrop(CORE, hexcolour(YELLOW))
    svg += svg_polygon(RIM, hexcolour(WHITE))
    svg += svg_polygon(HANDLE, hexcolour(WHITE))
    svg += "</svg>\n"
    with open(path, "w") as f:
        f.write(svg)


def main():
    os.makedirs(OUT, exist_ok=True)
    for size in (32, 64):
        path = os.path.join(OUT, f"logo-{size}x{size}.png")
        write_png(path, render(size, ss=16 if size <= 32 else 8))
        print("wrote", os.path.relpath(path, ROOT))
    path = os.path.join(OUT, "logo-svg.svg")
    write_svg(path)
    print("wrote", os.path.relpath(path, ROOT))


if __name__ == "__main__":
    main()
