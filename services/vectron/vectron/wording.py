"""Lists inside error details, written as English rather than Python reprs."""


def words(items, last: str = "and") -> str:
    """``a, b and c`` (or, with ``last="or"``, ``a, b or c``)."""
    items = [str(i) for i in items]
    return f" {last} ".join(filter(None, [", ".join(items[:-1]), *items[-1:]]))
