"""What every game's observation layout shares: a layout is a sequence of blocks
``(name, length, meaning)`` laid end to end, and from it come the offsets the writers use and
the Markdown table the documentation prints. Each game defines its own layout in its folder
(Mediatore's :mod:`mediatore_env.mediatore.layout`, Tressette's ``layout_of(players)`` in
:mod:`mediatore_env.tressette.observation`, club's in :mod:`mediatore_env.club.observation`).
"""

from __future__ import annotations

__all__ = ["block_offsets", "markdown_table"]


def block_offsets(layout) -> tuple[dict[str, int], dict[str, int], int]:
    """(offset of each block, length of each block, the vector's length) of a layout: a
    sequence of (name, length, meaning), blocks laid end to end in order."""
    offsets, sizes, offset = {}, {}, 0
    for name, length, _ in layout:
        offsets[name], sizes[name] = offset, length
        offset += length
    return offsets, sizes, offset


def markdown_table(layout) -> str:
    """A layout as a Markdown table (offset, length, block, meaning)."""
    offsets = block_offsets(layout)[0]
    rows = ["| offset | length | block | meaning |", "|---:|---:|---|---|"]
    rows += [f"| {offsets[name]} | {length} | `{name}` | {meaning} |" for name, length, meaning in layout]
    return "\n".join(rows)
