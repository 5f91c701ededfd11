"""The one way a family turns its flat rows into a frame: whole numbers in one int64 block, then the
named columns read as flags (bools); and the one way it reads a categorical column back as text."""

from __future__ import annotations

import numpy as np
import pandas as pd


def frame(flat: list, columns: tuple, flags: tuple = ()) -> pd.DataFrame:
    """`flat` holds the rows one after another, len(columns) values each."""
    out = pd.DataFrame(np.array(flat, dtype=np.int64).reshape(-1, len(columns)), columns=list(columns))
    for flag in flags:
        out[flag] = out[flag].astype(bool)
    return out


def text(column: pd.Series):
    """A categorical column's values as text (what `.astype(str)` gives), taken from its categories
    by code: no Python string per row (a column of 200,000 votes' cards went through 200,000)."""
    values = column.array
    if (
        isinstance(values, pd.Categorical)
        and values.categories.dtype == "str"
        and len(values)
        and values.codes.min() >= 0
    ):
        return values.categories.array.take(values.codes)
    return column.astype(str).to_numpy()  # (an empty column stays as it always was: Python objects)
