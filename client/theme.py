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
