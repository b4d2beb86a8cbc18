"""A board as an SVG picture, drawn from the description a game gives the web page
(:mod:`perfectplay.diagram`): one drawing function per generic kind, none for any game.

The looks follow the web page's (web/static/*.js): a frame with holes for dropped discs, a
checkered board with glyphs, felt, points joined by lines, pits and stores, a hex rhombus,
dots and lines. The picture is static: a notebook shows it, nobody clicks it. ``colours``
maps a move's notation to a fill, so an analysis can colour the places its moves play, as
the page does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

from perfectplay.diagram import Diagram, Grid, Hands, Heaps, HexBoard, Lines, Piece, Pits, Row, Text, Words

Colours = Mapping[str, str]

# The outline a highlighted place gets, by why it is marked.
HIGHLIGHT = {"last": "#0a58ca", "check": "#d1372b", "win": "#1e9e3a"}
STATUS_LINE = 20


def element(tag: str, text: str | None = None, **attributes: object) -> str:
    """One SVG element; attribute names with ``_`` are written with ``-`` (font_size)."""
    written = "".join(f" {name.rstrip('_').replace('_', '-')}={quoteattr(str(value))}"
                      for name, value in attributes.items() if value is not None)
    if text is None:
        return f"<{tag}{written}/>"
    return f"<{tag}{written}>{escape(text)}</{tag}>"


def label(x: float, y: float, words: str, size: float = 14, colour: str = "#222", bold: bool = False,
          anchor: str = "middle") -> str:
    return element("text", words, x=round(x, 1), y=round(y, 1), font_size=round(size, 1), fill=colour,
                   text_anchor=anchor, font_family="sans-serif", font_weight="bold" if bold else None)


def picture(diagram: Diagram, colours: Colours | None = None) -> str:
    """The whole SVG document for ``diagram``, with its status lines under the board."""
    draw = DRAWERS.get(type(diagram), _text)
    width, height, body = draw(diagram, colours or {})
    lines = [*diagram.status] + ([Words("game over", "#555")] if diagram.over and not diagram.status else [])
    body += "".join(label(8, height + STATUS_LINE * (i + 0.75), line.text, 13, line.colour, line.bold,
                          "start") for i, line in enumerate(lines))
    height += STATUS_LINE * len(lines) + (6 if lines else 0)
    width = max(width, 8 + 7 * max((len(line.text) for line in lines), default=0))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{round(width)}" height="{round(height)}" '
            f'viewBox="0 0 {round(width)} {round(height)}" data-kind="{diagram.kind}">{body}</svg>')


Drawn = tuple[float, float, str]  # width, height, the elements


def _piece(piece: Piece, x: float, y: float, size: float, mark: str) -> str:
    if piece.shape == "disc":
        return element("circle", cx=x, cy=y, r=round(size * 0.4, 1), fill=piece.colour,
                       stroke=None if piece.outline == "none" else piece.outline, data_mark=mark)
    if piece.shape == "fill":
        return (element("rect", x=x - size / 2 + 2, y=y - size / 2 + 2, width=size - 4, height=size - 4, rx=8,
                        fill=piece.colour, data_mark=mark)
                + label(x, y + size * 0.12, piece.text, size * 0.33, "#fff", True))
    colour = piece.colour if piece.shape == "letter" else "#111"
    return element("text", piece.text, x=x, y=round(y + size * 0.25, 1), font_size=round(size * 0.7, 1),
                   fill=colour, text_anchor="middle", font_family="sans-serif", data_mark=mark,
                   font_weight="bold" if piece.shape == "letter" else None)


def _ring(x: float, y: float, size: float, why: str) -> str:
    return element("rect", x=x + 3, y=y + 3, width=size - 6, height=size - 6, fill="none",
                   stroke=HIGHLIGHT.get(why, "#0a58ca"), stroke_width=4, data_highlight=why)


def _edge_names(columns: Sequence[str], rows: Sequence[str], left: float, top: float, cell: float,
                count: tuple[int, int], centred: bool = True) -> str:
    shift = cell / 2 if centred else 0
    drawn = [label(left + c * cell + shift, top + count[0] * cell + (16 if centred else 28), name, 12, "#555")
             for c, name in enumerate(columns)]
    drawn += [label(left - 10, top + r * cell + shift + 4, name, 12, "#555") for r, name in enumerate(rows)]
    return "".join(drawn)


def _grid(board: Grid, colours: Colours) -> Drawn:
    if board.look == "points":
        return _points(board, colours)
    cell = {"frame": 56, "felt": 44, "checkered": 52}.get(board.look, 64)
    left, top = (24 if board.row_names else 8), 8 + (24 if board.drops else 0)
    places = {cell_.name: index for index, cell_ in enumerate(board.cells)}
    out = []
    if board.look == "frame":
        out.append(element("rect", x=left, y=top, width=board.columns * cell, height=board.rows * cell, rx=8,
                           fill="#1f5fbf"))
    for column, move in enumerate(board.drops):
        if move is not None and move in colours:
            out.append(element("rect", x=left + column * cell + 4, y=4, width=cell - 8, height=20, rx=4,
                               fill=colours[move], data_move=move))
    for index, place in enumerate(board.cells):
        r, c = divmod(index, board.columns)
        x, y = left + c * cell, top + r * cell
        out.append(_square(board, place.move, (r + c) % 2 == 0, x, y, cell, colours))
        piece = board.pieces.get(place.mark)
        if piece is not None:
            out.append(_piece(piece, x + cell / 2, y + cell / 2, cell, place.mark))
        if place.label:
            out.append(label(x + cell - 8, y + 14, place.label, 11, "#555"))
    for highlight in board.highlights:
        if highlight.place in places:
            r, c = divmod(places[highlight.place], board.columns)
            out.append(_ring(left + c * cell, top + r * cell, cell, highlight.why))
    out.append(_edge_names(board.column_names, board.row_names, left, top, cell, (board.rows, board.columns)))
    width = left + board.columns * cell + 8 + (44 if board.off == "right" else 0)
    return width, top + board.rows * cell + (24 if board.column_names else 8), "".join(out)


def _square(board: Grid, move: str | None, light: bool, x: float, y: float, cell: float,
            colours: Colours) -> str:
    if board.look == "frame":
        fill = colours.get(move or "", "#fff") if not board.drops else "#fff"
        return element("circle", cx=x + cell / 2, cy=y + cell / 2, r=cell / 2 - 6, fill=fill)
    fill = {"felt": "#2e7d4f", "checkered": "#f0d9b5" if light else "#b58863"}.get(board.look, "#f4f4f4")
    fill = colours.get(move or "", fill)
    return element("rect", x=x + 1, y=y + 1, width=cell - 2, height=cell - 2, fill=fill, stroke="#555",
                   stroke_width=1)


def _points(board: Grid, colours: Colours) -> Drawn:
    gap, margin = 90, 36
    def centre(index: int) -> tuple[float, float]:
        return margin + index % board.columns * gap, margin + index // board.columns * gap

    out = [element("line", x1=centre(a)[0], y1=centre(a)[1], x2=centre(b)[0], y2=centre(b)[1],
                   stroke="#8a7a5a", stroke_width=3) for a, b in board.lines]
    for index, place in enumerate(board.cells):
        x, y = centre(index)
        piece = board.pieces.get(place.mark)
        fill = piece.colour if piece is not None and piece.shape in ("fill", "disc") else \
            colours.get(place.move or "", "#d9cfb8")
        out.append(element("circle", cx=x, cy=y, r=22 if piece else 12, fill=fill, stroke="#222",
                           data_mark=place.mark or None))
        if piece is not None and piece.text:
            ink = "#fff" if piece.shape == "fill" else piece.colour
            out.append(label(x, y + 6, piece.text, 16, ink, True))
    out += [element("circle", cx=centre(i)[0], cy=centre(i)[1], r=26, fill="none",
                    stroke=HIGHLIGHT.get(h.why), stroke_width=4)
            for h in board.highlights for i, c in enumerate(board.cells) if c.name == h.place]
    return 2 * margin + (board.columns - 1) * gap, 2 * margin + (board.rows - 1) * gap, "".join(out)


def _hex(board: HexBoard, colours: Colours) -> Drawn:
    radius = 18.0
    step_x, step_y = math.sqrt(3) * radius, 1.5 * radius
    left, top = 30.0, 30.0
    out = []
    highlighted = {h.place for h in board.highlights}
    for index, place in enumerate(board.cells):
        r, c = divmod(index, board.size)
        x, y = left + c * step_x + r * step_x / 2, top + r * step_y
        corners = " ".join(f"{x + radius * math.cos(math.radians(60 * k + 30)):.1f},"
                           f"{y + radius * math.sin(math.radians(60 * k + 30)):.1f}" for k in range(6))
        out.append(element("polygon", points=corners, fill=colours.get(place.move or "", "#f4efe4"),
                           stroke="#1e9e3a" if place.name in highlighted else "#777",
                           stroke_width=3 if place.name in highlighted else 1))
        piece = board.pieces.get(place.mark)
        if piece is not None:
            out.append(_piece(piece, x, y, radius * 1.8, place.mark))
    width = left * 2 + (board.size - 1) * step_x * 1.5 + radius
    height = top * 2 + (board.size - 1) * step_y
    last = board.size - 1
    drop = (last * step_x / 2, last * step_y)  # from a row's first cell to the last row's
    left_x, right_x = left - step_x / 2 - 6, left + last * step_x + step_x / 2 + 6
    up, down = top - radius / 2, top + radius / 2
    edges = [(board.vertical, left, top - radius - 6, left + last * step_x, top - radius - 6),
             (board.vertical, left + drop[0], height - top + radius + 6, left + drop[0] + last * step_x,
              height - top + radius + 6),
             (board.horizontal, left_x, up, left_x + drop[0], down + drop[1]),
             (board.horizontal, right_x, up, right_x + drop[0], down + drop[1])]
    out += [element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=board.pieces[mark].colour, stroke_width=4)
            for mark, x1, y1, x2, y2 in edges if mark in board.pieces]
    return width, height, "".join(out)


def _pits(board: Pits, colours: Colours) -> Drawn:
    size, store_width = 52, 60
    columns = max(len(board.top), len(board.bottom))
    out = [element("rect", x=4, y=4, width=2 * store_width + columns * size + 8, height=2 * size + 16, rx=16,
                   fill="#c8a46e")]
    for r, row in enumerate((board.top, board.bottom)):
        for c, pit in enumerate(row):
            x, y = 8 + store_width + c * size + size / 2, 12 + r * size + size / 2
            out.append(element("circle", cx=x, cy=y, r=size / 2 - 4,
                               fill=colours.get(pit.move or "", "#8b5e34"), data_pit=pit.name))
            out.append(label(x, y + 6, str(pit.seeds), 16, "#fff", True))
    for x, store in ((8, board.left), (8 + store_width + columns * size, board.right)):
        out.append(element("rect", x=x + 4, y=12, width=store_width - 8, height=2 * size, rx=20,
                           fill="#8b5e34", data_store=store.side))
        out.append(label(x + store_width / 2, 12 + size + 6, str(store.seeds), 18, "#fff", True))
    return 2 * store_width + columns * size + 16, 2 * size + 24, "".join(out)


def _lines(board: Lines, colours: Colours) -> Drawn:
    gap, margin = 56, 20
    dot = lambda row, column: (margin + column * gap, margin + row * gap)  # noqa: E731
    out = []
    for box in board.boxes:
        x, y = dot(box.row, box.column)
        piece = board.pieces.get(box.owner or "")
        out.append(element("rect", x=x, y=y, width=gap, height=gap, fill=piece.tint if piece else "#eee"))
        if piece is not None:
            out.append(label(x + gap / 2, y + gap / 2 + 6, box.owner or "", 16, piece.colour, True))
    for edge in board.edges:
        (x1, y1), (x2, y2) = dot(*edge.source), dot(*edge.target)
        stroke = "#222" if edge.drawn else colours.get(edge.move, "#ddd")
        out.append(element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke,
                           stroke_width=5 if edge.drawn else 3,
                           stroke_dasharray=None if edge.drawn or edge.move in colours else "4 4",
                           data_drawn=str(edge.drawn).lower()))
    out += [element("circle", cx=dot(r, c)[0], cy=dot(r, c)[1], r=5, fill="#222")
            for r in range(board.rows + 1) for c in range(board.columns + 1)]
    return 2 * margin + board.columns * gap, 2 * margin + board.rows * gap, "".join(out)


def _heaps(board: Heaps, colours: Colours) -> Drawn:
    gap, height = 12, 44
    out, widest = [], 0.0
    for number, heap in enumerate(board.heaps):
        y = 8 + number * (height + 10)
        left = 40 if board.numbered else 8
        if board.numbered:
            out.append(label(8, y + height / 2 + 5, f"{number + 1}:", 13, "#555", anchor="start"))
        drawn = min(heap.size, 40)
        for j in range(drawn):
            move = heap.takes[j] if j < len(heap.takes) else None
            fill = colours.get(move or "", {"tokens": "#2459c9"}.get(board.style, "#b07a3a"))
            if board.style == "tokens":
                out.append(element("circle", cx=left + j * gap + 5, cy=y + height / 2, r=5, fill=fill,
                                   data_object=j))
            else:
                out.append(element("rect", x=left + j * gap, y=y, width=6, height=height, rx=2, fill=fill,
                                   data_object=j))
                if board.style != "sticks":  # a match: a red head
                    out.append(element("circle", cx=left + j * gap + 3, cy=y + 3, r=4, fill="#c0392b"))
        text = f"{heap.size}" + (f" (first {drawn} drawn)" if heap.size > drawn else "")
        out.append(label(left + drawn * gap + 8, y + height / 2 + 5, text, 13, "#222", anchor="start"))
        widest = max(widest, left + drawn * gap + 8 + 8 * len(text))
    return widest + 8, 8 + len(board.heaps) * (height + 10), "".join(out)


def _row(board: Row, colours: Colours) -> Drawn:
    size = 46
    out = []
    for index, item in enumerate(board.items):
        x, y = 8 + index * (size + 6), 8
        fill = {"gone": "#f4f4f4", "claimed": "#888", "blocked": "#ccc"}.get(item.state, "#fff")
        fill = colours.get(item.move or "", fill)
        if board.style == "discs":
            out.append(element("circle", cx=x + size / 2, cy=y + size / 2, r=size / 2 - 2, fill=fill,
                               stroke="#555", data_state=item.state or "play"))
        else:
            out.append(element("rect", x=x, y=y, width=size, height=size,
                               rx=4 if board.style == "squares" else 8, fill=fill, stroke="#555",
                               data_state=item.state or "play"))
        if item.text and item.state != "gone":
            out.append(label(x + size / 2, y + size / 2 + 6, item.text, 16, "#222", True))
        if item.caption:
            out.append(label(x + size / 2, y + size + 16, item.caption, 11, "#555"))
    return 16 + len(board.items) * (size + 6), size + 32, "".join(out)


def _hands(board: Hands, colours: Colours) -> Drawn:
    size = 70
    out = []
    for r, (hands, words) in enumerate(((board.top, board.top_label), (board.bottom, board.bottom_label))):
        y = 24 + r * (size + 40)
        out.append(label(8, y - 6, words, 13, "#555", anchor="start"))
        for c, hand in enumerate(hands):
            x = 8 + c * (size + 20)
            out.append(element("rect", x=x, y=y, width=size, height=size, rx=18, stroke="#8a6a4a",
                               fill="#ddd" if hand.fingers == 0 else "#f6d7b0", data_hand=hand.name))
            out.append(label(x + size / 2, y + size / 2 + 10, str(hand.fingers), 28, "#222", True))
            out.append(label(x + size / 2, y + size + 14, hand.caption, 11, "#555"))
    return 16 + 2 * (size + 20) + 60, 24 + 2 * (size + 40), "".join(out)


def _text(board: Diagram, colours: Colours) -> Drawn:
    lines = board.text.splitlines() if isinstance(board, Text) else [repr(board)]
    out = [element("text", line, x=8, y=20 + 18 * i, font_size=14, font_family="monospace", fill="#222",
                   **{"xml:space": "preserve"}) for i, line in enumerate(lines)]
    return 16 + 8.5 * max((len(line) for line in lines), default=1), 12 + 18 * len(lines), "".join(out)


DRAWERS: dict[type[Diagram], Callable[..., Drawn]] = {
    Grid: _grid, HexBoard: _hex, Pits: _pits, Lines: _lines, Heaps: _heaps, Row: _row, Hands: _hands,
    Text: _text}

__all__ = ["DRAWERS", "HIGHLIGHT", "element", "picture"]
