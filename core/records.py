"""The shapes of what a game sends and logs: moves, intents, the log's header, move and end
records, and the closed sets of words inside them.

These are types for the dicts core already builds and reads, key for key as on the wire and
in the log (docs/log-format.md; ``core.logschema`` is what checks a file against them): a
``TypedDict`` is a plain dict at run time, so nothing here changes a byte of any encoding.
Optional keys (``at``, ``intent``, ``sig``, ``batch``, ``signing``) sit in a ``total=False`` part.
Key order in a record is the order its builder writes them in (``core.log``), not this.

Each closed set of words is a ``Literal`` and, where code asks "is this one of them?", the
tuple of its values is taken from the ``Literal`` itself, so the words live in one place.
"""
from __future__ import annotations

from typing import Any, Literal, Mapping, TypedDict, Union, get_args

# ---------------------------------------------------------------- words
Mode = Literal["solo", "table", "daily", "ranked", "practice"]
MODES: tuple[Mode, ...] = get_args(Mode)

SeatKind = Literal["human", "bot"]
SEAT_KINDS: tuple[SeatKind, ...] = get_args(SeatKind)

GiveUpReason = Literal["gave_up", "left", "away"]   # asked to, left the table, missed 3 turns
GIVE_UP_REASONS: tuple[GiveUpReason, ...] = get_args(GiveUpReason)

MoveType = Literal["roll", "write", "give_up", "undo"]   # undo: practice logs only (core.undo)
MOVE_TYPES: tuple[MoveType, ...] = get_args(MoveType)

DiceScheme = Literal["commit", "day", "public"]

# Why core refuses a move (``core.game.Refusal.code``; translated as ``refusal.<code>``,
# listed in docs/rules.md).  ``wrong_dice`` only comes from a forged or corrupted log.
RefusalCode = Literal[
    "not_seated", "game_over", "seat_gave_up", "not_your_turn", "bad_hold", "no_rolls_left",
    "must_roll_first", "unknown_box", "box_filled", "joker_forces_box", "seat_done", "bad_move",
    "bad_dice", "wrong_dice", "nothing_to_undo", "too_many_undos",
]

# Why a log is invalid (``core.log.LogError.code``, ``core.verify.Verdict.code``; translated
# as ``verify.fail.<code>``, listed in docs/log-format.md); ``ok`` for a valid one.
VerifyCode = Literal[
    "ok", "not_a_log", "truncated", "bad_version", "corrupt", "chain", "trailing_data",
    "missing_reveal", "commitment", "first_seat", "dice", "illegal_move", "state_hash", "totals",
    "standings", "signature", "format", "io_error", "time",
]

# ``meta`` in a header or an end record: short free-form values (``core.logschema._meta``)
MetaValue = Union[str, int, bool, None]
Meta = Mapping[str, MetaValue]


# ---------------------------------------------------------------- moves
class RollMove(TypedDict):
    type: Literal["roll"]
    seat: int
    hold: list[bool]      # five: the dice kept from the last roll
    dice: list[int]       # five faces after the roll
    auto: bool            # made by the table's clock


class WriteMove(TypedDict):
    type: Literal["write"]
    seat: int
    box: str              # one of its ruleset's boxes (``core.rules.Ruleset.boxes``)
    auto: bool


class GiveUpMove(TypedDict):
    type: Literal["give_up"]
    seat: int
    why: GiveUpReason


class UndoMove(TypedDict):
    """The seat's write just before it is taken back (a practice game only: ``core.undo``)."""
    type: Literal["undo"]
    seat: int


Move = Union[RollMove, WriteMove, GiveUpMove, UndoMove]


class _IntentBody(TypedDict):
    seq: int              # the last move the seat saw
    type: MoveType


class Intent(_IntentBody, total=False):
    """What a seat signs (``core.signing.intent_body``) and the relay logs with its move."""
    hold: list[bool]      # a roll's
    box: str              # a write's
    round: int            # in a log played in rounds: the seat's own turn (``seq``: its rolls in it)
    sig: bytes            # 64 bytes; absent from the body that is signed


# ---------------------------------------------------------------- the log
class SeatRecord(TypedDict):
    name: str
    kind: SeatKind
    policy: str | None    # a bot's policy; None for a person


class GameSettings(TypedDict, total=False):
    turn_seconds: int     # at tables
    hints: bool           # a ranked run: the advisor was on or off


class CommitDice(TypedDict):
    scheme: Literal["commit"]
    commit: bytes                    # 32 bytes: SHA-256 commitment to the relay's seed
    contributions: list[bytes | None]


class _DayDice(TypedDict):
    scheme: Literal["day"]
    commit: bytes
    date: str                        # YYYY-MM-DD


class DayDice(_DayDice, total=False):
    rounds: bool                     # true: a daily table played in rounds (core.rounds)


class PublicDice(TypedDict):
    scheme: Literal["public"]
    date: str


DiceSpec = Union[CommitDice, DayDice, PublicDice]


class Signing(TypedDict):
    relay: bytes                     # the relay's 32-byte public key
    seats: list[bytes | None]        # each seat's, None for bots and seats without a key


class _HeaderBody(TypedDict):
    kind: Literal["header"]
    format: Literal["bonanza-log"]
    version: int
    mode: Mode
    ruleset: str
    seats: list[SeatRecord]
    first_seat: int
    settings: GameSettings
    dice: DiceSpec
    meta: dict[str, MetaValue]


class Header(_HeaderBody, total=False):
    signing: Signing                 # a relay's games only
    chain: bytes                     # added last: it hashes everything before it


class _MoveRecordBody(TypedDict):
    kind: Literal["move"]
    seq: int
    move: Move
    state: bytes                     # 16 bytes: the state hash after the move


class MoveRecord(_MoveRecordBody, total=False):
    at: int                          # ranked runs: ms of the relay's clock since the start
    intent: Intent                   # signed games: the seat's signed request
    chain: bytes
    sig: bytes                       # signed games: the relay's signature over the chain
    # signed in a batch (``core.signing``): [its index, the batch's size, its path]; the
    # signature is then over the batch's root
    batch: list[Any]


class Reveal(TypedDict, total=False):
    seed: bytes                      # the commit and day schemes
    date: str                        # the public scheme


class StandingRecord(TypedDict):
    seat: int
    name: str
    total: int
    place: int
    gave_up: GiveUpReason | None


class _EndRecordBody(TypedDict):
    kind: Literal["end"]
    seq: int
    reveal: Reveal
    totals: list[int]
    standings: list[StandingRecord]
    meta: dict[str, MetaValue]


class EndRecord(_EndRecordBody, total=False):
    chain: bytes
    sig: bytes
