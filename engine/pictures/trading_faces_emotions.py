"""Trading Faces' 13 emotions, in card order (card number = index + 1; RULES.md §4: 13 emotions × 3).

The rules deal them and `trading_faces.py` beside this module draws them: both read the list here,
so neither imports the other. Imports nothing."""

EMOTIONS = (
    "angry",
    "bored",
    "confused",
    "disgusted",
    "embarrassed",
    "happy",
    "excited",
    "proud",
    "sad",
    "scared",
    "surprised",
    "tired",
    "in_love",
)
