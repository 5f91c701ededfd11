"""The one way a family turns its flat rows into a frame: whole numbers in one int64 block, then the
named columns read as flags (bools)."""
from __future__ import annotations

import numpy as np
import pandas as pd


def frame(flat: list, columns: tuple, flags: tuple = ()) -> pd.DataFrame:
    """`flat` holds the rows one after another, len(columns) values each."""
    out = pd.DataFrame(np.array(flat, dtype=np.int64).reshape(-1, len(columns)), columns=list(columns))
    for flag in flags:
        out[flag] = out[flag].astype(bool)
    return out
