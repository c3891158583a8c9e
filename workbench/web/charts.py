"""Small server-side SVG charts: bars (counts, curves), lines (draw odds), a gauge (total vs limit).

Charts are SVG markup with every text escaped, styled by classes from ``static/css/app.css`` (the
CSP forbids inline styles), each with a ``<title>`` and ``role="img"`` so screen readers name it.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext
from markupsafe import Markup, escape

WIDTH = 360
HEIGHT = 180
PAD_LEFT = 34
PAD_BOTTOM = 34
PAD_TOP = 14


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def bar_chart(title: str, bars: Sequence[tuple[str, float]], css: str = "bar") -> Markup:
    """A vertical bar chart of (label, value) with the value above each bar."""
    n = max(1, len(bars))
    top = max([v for _, v in bars] + [1])
    plot_w = WIDTH - PAD_LEFT - 8
    plot_h = HEIGHT - PAD_BOTTOM - PAD_TOP
    slot = plot_w / n
    bar_w = max(4.0, min(42.0, slot * 0.7))
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>',
        f'<line class="axis" x1="{PAD_LEFT}" y1="{HEIGHT - PAD_BOTTOM}" x2="{WIDTH - 4}" y2="{HEIGHT - PAD_BOTTOM}"/>',
    ]
    for i, (label, value) in enumerate(bars):
        h = plot_h * value / top
        x = PAD_LEFT + slot * i + (slot - bar_w) / 2
        y = HEIGHT - PAD_BOTTOM - h
        cx = x + bar_w / 2
        parts.append(
            f'<g><title>{escape(label)}: {_num(value)}</title>'
            f'<rect class="{escape(css)}" x="{_num(x)}" y="{_num(y)}" width="{_num(bar_w)}" height="{_num(h)}" rx="2"/>'
            f'<text class="value" x="{_num(cx)}" y="{_num(y - 3)}" text-anchor="middle">{_num(value)}</text>'
            f'<text class="label" x="{_num(cx)}" y="{HEIGHT - PAD_BOTTOM + 14}" text-anchor="middle">{escape(label[:12])}</text></g>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def line_chart(title: str, series: Sequence[tuple[str, str, Sequence[tuple[int, float]]]],
               x_label: str = "turn", percent: bool = True) -> Markup:
    """Lines of (name, css class, [(x, y)]) with y in 0..1 drawn as 0-100 %; a legend below."""
    xs = sorted({x for _, _, pts in series for x, _ in pts}) or [1]
    x0, x1 = xs[0], max(xs[-1], xs[0] + 1)
    plot_w = WIDTH - PAD_LEFT - 10
    plot_h = HEIGHT - PAD_BOTTOM - PAD_TOP - 12

    def px(x: float) -> float:
        return PAD_LEFT + plot_w * (x - x0) / (x1 - x0)

    def py(y: float) -> float:
        return PAD_TOP + plot_h * (1 - y)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
    ]
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line class="grid" x1="{PAD_LEFT}" y1="{_num(py(tick))}" x2="{WIDTH - 10}" y2="{_num(py(tick))}"/>'
                     f'<text class="label" x="{PAD_LEFT - 4}" y="{_num(py(tick) + 4)}" text-anchor="end">'
                     f'{int(tick * 100) if percent else tick}{"%" if percent else ""}</text>')
    for x in xs:
        parts.append(f'<text class="label" x="{_num(px(x))}" y="{_num(py(0) + 14)}" text-anchor="middle">{x}</text>')
    parts.append(f'<text class="label" x="{WIDTH - 10}" y="{_num(py(0) + 26)}" text-anchor="end">{escape(x_label)}</text>')
    for idx, (name, css, pts) in enumerate(series):
        if not pts:
            continue
        path = " ".join(f"{'M' if i == 0 else 'L'}{_num(px(x))},{_num(py(y))}" for i, (x, y) in enumerate(pts))
        parts.append(f'<path class="line {escape(css)}" d="{path}"/>')
        for x, y in pts:
            parts.append(f'<circle class="dot {escape(css)}" cx="{_num(px(x))}" cy="{_num(py(y))}" r="2.5">'
                         f'<title>{escape(name)}, {escape(x_label)} {x}: {y * 100:.1f}%</title></circle>')
        lx = PAD_LEFT + idx * 130
        parts.append(f'<rect class="swatch {escape(css)}" x="{lx}" y="{HEIGHT - 12}" width="10" height="10"/>'
                     f'<text class="label" x="{lx + 14}" y="{HEIGHT - 3}">{escape(name)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def gauge(title: str, total: float, limit: float | None, strict: bool) -> Markup:
    """A horizontal bar of ``total`` against ``limit`` (red when over it)."""
    width, height = WIDTH, 54
    top = max(total, limit or 0, 1) * 1.1
    inner = width - 20
    ok = limit is None or (total < limit if strict else total <= limit)
    bar = inner * total / top
    parts = [
        f'<svg class="chart gauge" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>',
        f'<rect class="track" x="10" y="12" width="{inner}" height="16" rx="3"/>',
        f'<rect class="{"fill-ok" if ok else "fill-bad"}" x="10" y="12" width="{_num(bar)}" height="16" rx="3"/>',
        f'<text class="value" x="{_num(10 + min(bar, inner - 30) + 4)}" y="25">{_num(total)}</text>',
    ]
    if limit is not None:
        lx = 10 + inner * limit / top
        limit_text = (gettext("limit (must be less) %(n)s", n=_num(limit)) if strict
                      else gettext("limit %(n)s", n=_num(limit)))
        anchor = "end" if lx > width * 0.65 else "middle"
        parts.append(f'<line class="limit" x1="{_num(lx)}" y1="6" x2="{_num(lx)}" y2="34"/>'
                     f'<text class="label" x="{_num(lx)}" y="48" text-anchor="{anchor}">'
                     f'{escape(limit_text)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _nice_step(rough: float) -> float:
    """The 1-2-5 step at or above ``rough`` (axis ticks a reader can add up)."""
    import math

    magnitude = 10 ** math.floor(math.log10(rough)) if rough > 0 else 1
    return float(next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= rough))


def budget_scatter(title: str, points: Sequence[tuple[str, str, float, float, bool]],
                   limit_line: Sequence[tuple[float, float]], x_label: str, y_label: str) -> Markup:
    """Cards as dots of (name, link, step, stat total, over budget) with the budget line drawn;
    each dot links to its card and is named in its tooltip. Dots over the line are marked."""
    width, height = 560, 300
    pad_l, pad_b, pad_t, pad_r = 44, 38, 14, 12
    xs = [p[2] for p in points] + [x for x, _ in limit_line] or [0.0]
    ys = [p[3] for p in points] + [y for _, y in limit_line] or [0.0]
    x0, x1 = min(xs), max(max(xs), min(xs) + 1)
    y_step = _nice_step(max(ys + [1]) / 4)
    y1 = y_step * (int(max(ys + [1]) / y_step) + 1)
    plot_w, plot_h = width - pad_l - pad_r, height - pad_b - pad_t

    def px(x: float) -> float:
        return pad_l + plot_w * (x - x0) / (x1 - x0)

    def py(y: float) -> float:
        return pad_t + plot_h * (1 - y / y1)

    parts = [
        f'<svg class="chart scatter" viewBox="0 0 {width} {height}" role="group" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>',
        f'<line class="axis" x1="{pad_l}" y1="{_num(py(0))}" x2="{width - pad_r}" y2="{_num(py(0))}"/>',
        f'<line class="axis" x1="{pad_l}" y1="{pad_t}" x2="{pad_l}" y2="{_num(py(0))}"/>',
    ]
    for tick in range(int(x0), int(x1) + 1):
        parts.append(f'<text class="label" x="{_num(px(tick))}" y="{_num(py(0) + 14)}" text-anchor="middle">{tick}</text>')
    for i in range(int(round(y1 / y_step)) + 1):
        value = y_step * i
        parts.append(f'<line class="grid" x1="{pad_l}" y1="{_num(py(value))}" x2="{width - pad_r}" y2="{_num(py(value))}"/>'
                     f'<text class="label" x="{pad_l - 4}" y="{_num(py(value) + 4)}" text-anchor="end">{_num(value)}</text>')
    parts.append(f'<text class="label" x="{width - pad_r}" y="{height - 4}" text-anchor="end">{escape(x_label)}</text>'
                 f'<text class="label" x="{pad_l}" y="{pad_t - 3}">{escape(y_label)}</text>')
    if limit_line:
        budget_word = gettext("budget")
        path = " ".join(f"{'M' if i == 0 else 'L'}{_num(px(x))},{_num(py(y))}" for i, (x, y) in enumerate(limit_line))
        parts.append(f'<path class="limit-line" d="{path}"><title>{escape(budget_word)}</title></path>')
    seen: dict[tuple[float, float], int] = {}
    for name, link, x, y, over in points:
        stack = seen.get((x, y), 0)  # cards on the same spot fan out a little
        seen[(x, y)] = stack + 1
        cx, cy = px(x) + (stack % 5) * 3 - 6 if stack else px(x), py(y)
        css = "dot-over" if over else "dot-ok"
        dot_title = gettext("%(card)s: %(value)s at %(field)s %(at)s", card=name, value=_num(y), field=x_label,
                            at=_num(x)) + (gettext(" (over budget)") if over else "")
        parts.append(f'<a href="{escape(link)}"><circle class="{css}" cx="{_num(cx)}" cy="{_num(cy)}" r="4">'
                     f'<title>{escape(dot_title)}'
                     f'</title></circle></a>')
    parts.append("</svg>")
    return Markup("".join(parts))
