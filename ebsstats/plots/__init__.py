"""Plots, seaborn style: ``data=`` plus column names; each returns the matplotlib Axes or Figure
and never calls ``plt.show()``. One module per statistical family; formatting for people (MB/s,
ms) happens here and nowhere else.
"""
