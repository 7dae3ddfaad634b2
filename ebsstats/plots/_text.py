"""Text in plots is data, never markup: metadata such as ``config: "gp3 $\\x$"`` must not reach
matplotlib's mathtext parser (a string with two ``$`` is parsed as TeX; an unknown command raises
when the figure is drawn and takes the whole report down).

:func:`plain_text` is applied by every plot function to what it returns: titles, axis labels,
legend entries and annotations are drawn with mathtext off; tick labels that come from data
(categories, fixed labels) get their ``$`` escaped, while numeric tick formatters (e.g. the
``10^2`` of a log axis) are left alone.
"""

from __future__ import annotations

from ebsstats.stats._core import natural_key  # (one rule for tables and axes)

__all__ = ["plain_text", "escape", "natural_key"]


def escape(text: object) -> str:
    r"""``text`` with every unescaped ``$`` escaped, so that mathtext shows it literally.

    >>> escape("gp3 $\\undefinedcmd{x}$")
    'gp3 \\$\\undefinedcmd{x}\\$'
    >>> escape(r"already \$5")
    'already \\$5'
    """
    s = str(text)
    out, prev = [], ""
    for ch in s:
        out.append("\\$" if ch == "$" and prev != "\\" else ch)
        prev = ch
    return "".join(out)


def _escaping(formatter):
    from matplotlib.ticker import FuncFormatter

    def fmt(x, pos=None):
        return escape(formatter(x, pos))

    wrapped = FuncFormatter(fmt)
    wrapped._ebsstats_escaped = True
    return wrapped


def plain_text(obj):
    """Turn mathtext off in every text of ``obj`` (a Figure or an Axes) and escape ``$`` in
    tick labels that come from data; returns ``obj``.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> _ = ax.bar(["gp3 $\\\\undefinedcmd{x}$", "io2"], [1, 2])
    >>> _ = ax.set_title("config $\\\\bad{$")
    >>> fig = plain_text(fig); fig.canvas.draw()   # would raise ValueError without
    >>> plt.close(fig)
    """
    from matplotlib.category import StrCategoryFormatter
    from matplotlib.text import Text
    from matplotlib.ticker import FixedFormatter

    fig = obj.get_figure() if hasattr(obj, "get_figure") and not hasattr(obj, "axes") else obj
    fig = getattr(obj, "figure", None) or fig
    root = fig if fig is not None else obj
    for text in root.findobj(Text):
        text.set_parse_math(False)
    for ax in getattr(root, "axes", []):
        for axis in (ax.xaxis, ax.yaxis):
            f = axis.get_major_formatter()
            if isinstance(f, StrCategoryFormatter | FixedFormatter) and not getattr(
                    f, "_ebsstats_escaped", False):
                axis.set_major_formatter(_escaping(f))
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                for label in (tick.label1, tick.label2):
                    label.set_text(escape(label.get_text()))
                    label.set_parse_math(True)  # numeric formatters may use mathtext
    return obj
