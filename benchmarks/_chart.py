"""A log-log line chart of time and of peak memory, as a dependency-free SVG."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

COLOURS = ("#1f77b4", "#d62728", "#7f7f7f", "#2ca02c")
WIDTH, HEIGHT = 420, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 34, 46


@dataclass
class Series:
    """One reader: (N, milliseconds) and (N, megabytes) points."""

    name: str
    times: list[tuple[float, float]]
    memory: list[tuple[float, float]]


def _decades(low: float, high: float) -> tuple[int, int]:
    return math.floor(math.log10(low)), math.ceil(math.log10(high))


def _label(exponent: int) -> str:
    value = 10.0**exponent
    if exponent >= 0:
        return f"{int(value):,}"
    return f"{value:g}"


def _panel(
    x0: float, title: str, unit: str, lines: list[tuple[str, list[tuple[float, float]]]]
) -> list[str]:
    xs = [x for _, points in lines for x, _ in points]
    ys = [y for _, points in lines for _, y in points]
    (xlo, xhi), (ylo, yhi) = _decades(min(xs), max(xs)), _decades(min(ys), max(ys))
    yhi = max(yhi, ylo + 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return x0 + LEFT + (math.log10(x) - xlo) / (xhi - xlo) * plot_w

    def py(y: float) -> float:
        return TOP + plot_h - (math.log10(y) - ylo) / (yhi - ylo) * plot_h

    out = [
        f'<text x="{x0 + WIDTH / 2}" y="20" text-anchor="middle" font-weight="bold">{title}</text>',
        f'<rect x="{x0 + LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" '
        'stroke="#444"/>',
    ]
    for exponent in range(xlo, xhi + 1):
        x = px(10.0**exponent)
        out.append(
            f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" stroke="#ddd"/>'
        )
        out.append(
            f'<text x="{x:.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">'
            f"{_label(exponent)}</text>"
        )
    for exponent in range(ylo, yhi + 1):
        y = py(10.0**exponent)
        out.append(
            f'<line x1="{x0 + LEFT}" y1="{y:.1f}" x2="{x0 + LEFT + plot_w}" y2="{y:.1f}" '
            'stroke="#ddd"/>'
        )
        out.append(
            f'<text x="{x0 + LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{_label(exponent)}</text>'
        )
    out.append(
        f'<text x="{x0 + LEFT + plot_w / 2}" y="{HEIGHT - 10}" text-anchor="middle">'
        "workers (N)</text>"
    )
    out.append(
        f'<text x="{x0 + 14}" y="{TOP + plot_h / 2}" text-anchor="middle" '
        f'transform="rotate(-90 {x0 + 14} {TOP + plot_h / 2})">{unit}</text>'
    )
    for (_, points), colour in zip(lines, COLOURS, strict=False):
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out.extend(
            f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>' for x, y in points
        )
    return out


def write_chart(path: Path, series: list[Series]) -> None:
    """Write the time panel and the memory panel side by side, with one legend."""
    body = _panel(0, "time per call", "milliseconds", [(s.name, s.times) for s in series])
    body += _panel(WIDTH, "peak memory per call", "MB", [(s.name, s.memory) for s in series])
    for number, (item, colour) in enumerate(zip(series, COLOURS, strict=False)):
        x = 80 + number * 160
        body.append(
            f'<line x1="{x}" y1="{HEIGHT + 12}" x2="{x + 24}" y2="{HEIGHT + 12}" '
            f'stroke="{colour}" stroke-width="3"/>'
        )
        body.append(f'<text x="{x + 30}" y="{HEIGHT + 16}">{item.name}</text>')
    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * WIDTH}" height="{HEIGHT + 28}" '
        f'viewBox="0 0 {2 * WIDTH} {HEIGHT + 28}" font-family="sans-serif" font-size="11">',
        f'<rect width="{2 * WIDTH}" height="{HEIGHT + 28}" fill="white"/>',
        *body,
        "</svg>",
    ]
    path.write_text("\n".join(svg) + "\n", encoding="utf-8")
