"""What every game's picture (``<game>/picture.py``) draws with: SVG elements whose bytes
depend on the view alone, and text sized to fit. Pure Python (the standard library's
ElementTree): no Flask, no HTTP."""

import xml.etree.ElementTree as ET

#: every picture is this many units wide (a phone's width; the height follows the game)
WIDTH = 360


def element(parent, tag, text=None, **attrs):
    """An element; attributes sorted by name (``class_`` → ``class``, ``font_size`` →
    ``font-size``) so the same view always gives the same bytes."""
    named = {("viewBox" if k == "viewBox" else k.rstrip("_").replace("_", "-")): number(v)
             for k, v in attrs.items()}
    attrib = dict(sorted(named.items()))
    node = ET.Element(tag, attrib) if parent is None else ET.SubElement(parent, tag, attrib)
    if text is not None:
        node.text = text
    return node


def number(value) -> str:
    """A coordinate as few characters as say it (``12``, ``12.5``)."""
    if isinstance(value, float):
        return f"{value:.1f}".rstrip("0").rstrip(".")
    return str(value)


def fitted(text: str, size: float, room: int = WIDTH - 32) -> float:
    """The font size (at most ``size``) at which ``text`` fits ``room`` units: a wide
    (CJK) character is about one em, another about 0.62 em in bold."""
    ems = sum(1.0 if ord(c) >= 0x2E80 else 0.62 for c in text)
    return min(size, round(room / ems, 1))


def document(root) -> str:
    return ET.tostring(root, encoding="unicode")


def uses(*alternatives: dict) -> str:
    """A ``data-uses`` value: what touching the element on the page picks, as the moves
    that use it. Each alternative is fields a move must all hold (``{"seat": 1, "type":
    "push", "chip": 5}`` → ``seat=1,type=push,chip=5``; a list field holds a value when
    one of its items is it); alternatives are spaced. The page marks the element too when
    the last move, or a move it lists for what was touched, holds one of them."""
    def word(value) -> str:
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)
    return " ".join(",".join(f"{key}={word(value)}" for key, value in alt.items())
                    for alt in alternatives)
