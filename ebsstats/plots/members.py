"""Plots of slow RAID members: members over time with flags, the slowest-member timeline, and
array throughput against N × the slowest member."""

from __future__ import annotations

import pandas as pd

from ebsstats._docs import renamed
from ebsstats.plots._text import natural_key, plain_text
from ebsstats.units import display


def _window_axis(ax, windows: pd.Series) -> None:
    """Dates on the x axis read in the windows' zone (their local midnights), and named."""
    import matplotlib.dates as mdates

    tz = getattr(windows.dtype, "tz", None)
    locator = mdates.AutoDateLocator(tz=tz)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator, tz=tz))
    ax.set_xlabel(f"window start ({tz if tz is not None else 'UTC'})")


@renamed(result="data")
def members_plot(data: pd.DataFrame, member: str = "volume", group: str | None = "raid_set",
                 set_name: str | None = None, unit: str | None = None, ax=None):
    """Each member's window median over time; flagged windows marked with a red ring.

    ``data`` is the frame of :func:`ebsstats.stats.members.slow_volumes`. Returns the Axes.
    """
    import matplotlib.pyplot as plt
    import seaborn as sns

    r = data
    if group and group in r and set_name is not None:
        r = r[r[group] == set_name]
    factor, label = display(unit) if unit else (1.0, "value")
    ax = ax or plt.subplots(figsize=(9, 3.5))[1]
    r = r.assign(shown=r["value"] * factor)
    sns.lineplot(data=r, x="window", y="shown", hue=member, marker="o", markersize=3, ax=ax)
    hit = r[r["flag"]]
    ax.scatter(hit["window"], hit["shown"], s=90, facecolors="none", edgecolors="red",
               linewidths=1.5, label="flagged slow", zorder=5)
    _window_axis(ax, r["window"])
    ax.set_ylabel(label)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))  # never over data
    return plain_text(ax)


@renamed(result="data")
def slowest_timeline_plot(data: pd.DataFrame, member: str = "volume",
                          group: str | None = "raid_set", ax=None):
    """Which member was slowest in each window (filled when flagged, hollow when not)."""
    import matplotlib.pyplot as plt

    worst = data[data["slowest"]]
    members = sorted(data[member].astype(str).unique(), key=natural_key)
    ypos = {m: i for i, m in enumerate(members)}
    ax = ax or plt.subplots(figsize=(9, 0.4 * len(members) + 1.5))[1]
    y = worst[member].astype(str).map(ypos)
    ax.scatter(worst.loc[worst["flag"], "window"], y[worst["flag"]], color="tab:red", s=30,
               label="slowest, flagged")
    ax.scatter(worst.loc[~worst["flag"], "window"], y[~worst["flag"]], facecolors="none",
               edgecolors="grey", s=30, label="slowest, within noise")
    ax.set_yticks(range(len(members)), members)
    _window_axis(ax, data["window"])
    ax.set_title("slowest member per window")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    return plain_text(ax)


@renamed(check="data")
def array_plot(data: pd.DataFrame, unit: str | None = None, ax=None):
    """Array throughput against N × slowest member and the sum of the members, per window (one
    set of lines per test/op/metric of :func:`ebsstats.stats.members.array_check`'s result)."""
    import matplotlib.pyplot as plt

    factor, label = display(unit) if unit else (1.0, "value")
    ax = ax or plt.subplots(figsize=(9, 3.5))[1]
    cells = [k for k in ("test", "op", "metric") if k in data and data[k].nunique() > 1]
    for key, c in (data.groupby(cells, sort=True) if cells else [((), data)]):
        c = c.sort_values("window")
        of = f" ({', '.join(map(str, key))})" if cells else ""
        whole = c["members_measured"] == c["n_members"] if "members_measured" in c else True
        ax.plot(c["window"], c["array"] * factor, "o-", label=f"array (measured){of}")
        # (N x slowest only where every member ran: see array_check's note)
        ax.plot(c["window"], (c["n_members"] * c["slowest"] * factor).where(whole), "s--",
                label=f"N × slowest member{of}")
        ax.plot(c["window"], c["sum_members"].where(whole) * factor, ":",
                label=f"sum of members{of}")
    ax.set_ylabel(label)
    _window_axis(ax, data["window"].sort_values())
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    return plain_text(ax)
