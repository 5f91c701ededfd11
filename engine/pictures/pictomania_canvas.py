"""Pictomania's canvas (the drawing sheet) and what a drawing may hold: the rules check strokes
against these, the keepsake and the sample drawings draw with them, so neither imports the other.
Imports nothing.

Integer points 0..CANVAS_WIDTH × 0..CANVAS_HEIGHT (x to the right, y downwards), widths
WIDTH_MIN..WIDTH_MAX in the same units, a colour `#rrggbb` or ERASER."""

CANVAS_WIDTH, CANVAS_HEIGHT = 1000, 750
WIDTH_MIN, WIDTH_MAX = 1, 40
MAX_STROKE_POINTS = 400
MAX_STROKES = 200
MAX_DRAWING_POINTS = 8000
MAX_STROKE_TIME = 24 * 3600 * 1000  # a stroke's "t", in ms since the round's drawing began
ERASER = "eraser"
DEFAULT_COLOR, DEFAULT_WIDTH = "#000000", 6
PALETTE = ("#000000", "#e53935", "#fb8c00", "#fdd835", "#43a047", "#1e88e5", "#8e24aa", "#6d4c41")
