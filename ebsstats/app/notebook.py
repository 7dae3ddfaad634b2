"""Display defaults for the notebooks: readable numbers in tables, consistent figures.

Every notebook calls :func:`setup` once; scripts never need it.
"""

from __future__ import annotations

import math


def _format(x: float) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "NaN"
    a = abs(x)
    if a >= 1000:
        return f"{x:,.0f}"
    if a >= 1 or a == 0:
        return f"{x:.3f}".rstrip("0").rstrip(".") if a < 100 else f"{x:.1f}"
    return f"{x:.3g}"


def setup(max_columns: int = 40, dpi: int = 100) -> None:
    """Pandas shows floats with 3–4 significant digits (thousands separated, never ``9.6e+04``
    for a rate), more columns before eliding, and matplotlib draws at ``dpi`` with a light grid.

    Examples
    --------
    >>> setup()
    >>> import pandas as pd
    >>> pd.get_option("display.float_format")(96268.93)
    '96,269'
    """
    import matplotlib as mpl
    import pandas as pd

    pd.set_option("display.float_format", _format)
    pd.set_option("display.max_columns", max_columns)
    pd.set_option("display.width", 160)
    mpl.rcParams.update({"figure.dpi": dpi, "axes.grid": True, "grid.alpha": 0.3,
                         "axes.spines.top": False, "axes.spines.right": False})
