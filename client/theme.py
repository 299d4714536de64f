"""Colours, sizes and asset paths of the client's look (one place to restyle)."""
from __future__ import annotations

from pathlib import Path

DESIGN_W, DESIGN_H = 1280, 720          # every layout rect is in these units
MIN_WINDOW = (960, 540)                  # the smallest supported window
WINDOW_SIZES = ((960, 540), (1280, 720), (1600, 900), (1920, 1080))
FPS_ACTIVE = 60
FPS_IDLE = 30                            # input polling of a still screen (it redraws rarely)

ASSETS = Path(__file__).resolve().parent.parent / "assets"
FONT_REGULAR = ASSETS / "fonts" / "DejaVuSans.ttf"
FONT_BOLD = ASSETS / "fonts" / "DejaVuSans-Bold.ttf"
SOUNDS = ASSETS / "sounds"

MIN_READABLE_PX = 11                     # fitted text never goes below this at 960x540

# palette
FELT = (20, 88, 62)
FELT_DARK = (13, 64, 45)
FELT_LIGHT = (32, 112, 80)
WOOD = (124, 78, 40)
WOOD_DARK = (86, 52, 26)
WOOD_LIGHT = (158, 104, 58)
PAPER = (250, 246, 232)
PAPER_LINE = (214, 205, 180)
PAPER_SHADE = (238, 231, 210)
INK = (34, 34, 40)
INK_SOFT = (98, 96, 104)
PREVIEW = (40, 110, 200)
PREVIEW_ZERO = (170, 160, 150)
ACTIVE_COL = (255, 244, 196)
SELECT = (255, 196, 40)
PENDING = (230, 90, 40)
PENDING_BG = (255, 226, 200)
GOLD = (246, 200, 70)
WHITE = (255, 255, 255)
SHADOW = (0, 0, 0)
TEXT_ON_FELT = (240, 244, 236)
TEXT_ON_FELT_SOFT = (178, 206, 188)
BUTTON = (238, 176, 52)
BUTTON_HOVER = (252, 200, 80)
BUTTON_TEXT = (48, 30, 8)
BUTTON_SECONDARY = (44, 128, 94)
BUTTON_SECONDARY_HOVER = (56, 150, 112)
BUTTON_DISABLED = (92, 112, 102)
BUTTON_DISABLED_TEXT = (150, 164, 156)
FOCUS_RING = (255, 255, 255)
DIE_FACE = (252, 250, 244)
DIE_EDGE = (196, 190, 176)
DIE_PIP = (30, 30, 36)
DIE_HELD = (255, 226, 120)
CHECK = (30, 150, 70)
HINT = (120, 200, 255)
URGENT = (230, 60, 50)
OK = (70, 190, 110)
BAD = (230, 80, 70)
TOAST_BG = (24, 28, 32)
PROGRESS_BG = (10, 44, 30)
PROGRESS_FG = (120, 210, 150)
# one colour per seat, wherever seats are told apart by colour (win chances, graphs)
SEAT_COLORS = ((238, 176, 52), (70, 150, 230), (214, 84, 150), (90, 180, 90))
# a mistake's severity (Analysis); each also has its own shape (client/marks.py)
GRADE_INACCURACY = (250, 222, 90)
GRADE_MISTAKE = (245, 150, 50)
GRADE_BLUNDER = (230, 80, 70)

# Palettes: "standard" is the values above.  Colour is never the only cue (every state told
# by colour also has a shape, symbol or text: client/marks.py), and these two make the colours
# themselves easier to tell apart.  Scenes read ``theme.X`` when they draw, so a palette is
# applied by rebinding the module's names (``apply_palette``).
PALETTES = ("standard", "colour_blind", "high_contrast")
# Okabe & Ito's eight colours, told apart with every common colour-vision deficiency
_OI_ORANGE, _OI_SKY, _OI_GREEN, _OI_YELLOW = (230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66)
_OI_BLUE, _OI_VERMILLION, _OI_PURPLE = (0, 114, 178), (213, 94, 0), (204, 121, 167)
_OVERRIDES: dict[str, dict[str, object]] = {
    "standard": {},
    "colour_blind": {
        "OK": _OI_SKY, "BAD": _OI_VERMILLION, "CHECK": _OI_BLUE, "URGENT": _OI_VERMILLION,
        "PENDING": _OI_VERMILLION, "HINT": _OI_SKY, "PREVIEW": _OI_BLUE, "PROGRESS_FG": _OI_SKY,
        "GRADE_INACCURACY": _OI_YELLOW, "GRADE_MISTAKE": _OI_ORANGE, "GRADE_BLUNDER": _OI_PURPLE,
        "SEAT_COLORS": (_OI_ORANGE, _OI_SKY, _OI_PURPLE, _OI_GREEN),
    },
    # black felt, white paper and ink, yellow for what is active: the largest contrasts
    "high_contrast": {
        "FELT": (0, 0, 0), "FELT_DARK": (0, 0, 0), "FELT_LIGHT": (24, 24, 24),
        "WOOD": (70, 70, 70), "WOOD_DARK": (255, 255, 255), "WOOD_LIGHT": (255, 255, 255),
        "PAPER": (255, 255, 255), "PAPER_LINE": (0, 0, 0), "PAPER_SHADE": (225, 225, 225),
        "INK": (0, 0, 0), "INK_SOFT": (40, 40, 40), "PREVIEW": (0, 60, 200), "PREVIEW_ZERO": (90, 90, 90),
        "ACTIVE_COL": (255, 240, 120), "SELECT": (255, 221, 0), "GOLD": (255, 221, 0),
        "TEXT_ON_FELT": (255, 255, 255), "TEXT_ON_FELT_SOFT": (235, 235, 235),
        "BUTTON": (255, 221, 0), "BUTTON_HOVER": (255, 255, 120), "BUTTON_TEXT": (0, 0, 0),
        "BUTTON_SECONDARY": (0, 70, 150), "BUTTON_SECONDARY_HOVER": (0, 100, 200),
        "BUTTON_DISABLED": (60, 60, 60), "BUTTON_DISABLED_TEXT": (200, 200, 200),
        "FOCUS_RING": (0, 200, 255), "DIE_FACE": (255, 255, 255), "DIE_EDGE": (0, 0, 0),
        "DIE_PIP": (0, 0, 0), "DIE_HELD": (255, 221, 0), "CHECK": (0, 90, 200),
        "HINT": (0, 200, 255), "OK": (0, 200, 255), "BAD": (255, 90, 60), "URGENT": (255, 60, 0),
        "PENDING": (200, 60, 0), "TOAST_BG": (0, 0, 0), "PROGRESS_BG": (40, 40, 40),
        "PROGRESS_FG": (255, 221, 0),
        "GRADE_INACCURACY": _OI_YELLOW, "GRADE_MISTAKE": _OI_ORANGE, "GRADE_BLUNDER": (200, 0, 0),
        "SEAT_COLORS": (_OI_ORANGE, _OI_SKY, _OI_PURPLE, _OI_GREEN),
    },
}
_STANDARD = {name: globals()[name] for o in _OVERRIDES.values() for name in o}
palette = "standard"


def apply_palette(name: str) -> str:
    """Make ``name`` the palette every scene draws with (an unknown name is "standard");
    the caller drops what was drawn and cached with the old one (``sprites.clear_caches``)."""
    global palette
    palette = name if name in _OVERRIDES else "standard"
    values = {**_STANDARD, **_OVERRIDES[palette]}
    globals().update(values)
    return palette


# Interface size: how large text is drawn, in percent of the design size (a design pixel at
# 200 % is two window pixels), whatever the window's size; "automatic" draws it with the window.
# The window only gives the boxes room: text grows past the boxes' own scale by at most
# MAX_TEXT_GROWTH, the ratio of 200 % to a 1920x1080 window's fit (150 %) and of 100 % to a
# 960x540 one's (75 %), where every scene is tested to fit (client/layout.py).
UI_SCALES = (75, 100, 125, 150, 175, 200)
MAX_TEXT_GROWTH = 4 / 3


def window_for_scale(percent: int) -> tuple[int, int]:
    """The window that holds the design at ``percent`` (the first window's size)."""
    return (DESIGN_W * percent // 100, DESIGN_H * percent // 100)


def scale_for_display(display: tuple[int, int] | None) -> int:
    """The largest design scale whose window leaves room for the desktop's bars: the size of
    the first window, and the automatic interface size in it."""
    if not display or display[0] <= 0 or display[1] <= 0:
        return 100
    fits = [p for p in UI_SCALES if DESIGN_W * p <= display[0] * 90 and DESIGN_H * p <= display[1] * 85]
    return fits[-1] if fits else UI_SCALES[0]
