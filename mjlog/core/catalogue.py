"""The catalogue of every code a reader, the replay or score verification reports.

One row per code and kind: what reports it, its usual severity and one line
of meaning. The docs (``docs/findings.md``), the audit report's schema and
the code tables of the modules come from here; rule violations are listed
by their checks (:mod:`mjlog.families.check`) and joined in by :mod:`mjlog.families.registry`.
A test scans the sources: every code they report is here, and every code
here is reported somewhere.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from mjlog.core.diagnostics import Severity

ERR, WARN, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


class Code(NamedTuple):
    """One code: its kind (``diagnostic``, ``finding``, ``mismatch``, ``violation``), what
    reports it, its severity and what it means."""

    code: str
    kind: str
    source: str
    severity: Severity
    meaning: str


def _rows(kind: str, source: str, *rows: tuple[str, Severity, str]) -> tuple[Code, ...]:
    return tuple(Code(code, kind, source, sev, meaning) for code, sev, meaning in rows)


DIAGNOSTICS: Final = (
    *_rows("diagnostic", "every reader",
           ("unknown-format", ERR, "the file is no record format mjlog reads"),
           ("unreadable", ERR, "the file cannot be opened"),
           ("bad-encoding", ERR, "the text is not UTF-8; its position is the first bad byte"),
           ("bad-gzip", ERR, "a damaged or cut gzip stream: what decompressed before the "
            "damage is read"),
           ("too-large", ERR, "a record past the size limit (gzip expanding past 256 MB, "
            "or --max-record-mb; one game's text past 16 MB; a JSON line past 16 MB): not "
            "read"),
           ("internal-error", ERR, "a reader failed on this input: a bug in mjlog, reported "
            "with the exception"),
           ("worker-died", ERR, "in a pool or on a cluster, reading or judging this file made "
            "the worker processes exit, alone and again (a crash, the worker's memory limit): "
            "reported, not retried forever"),
           ("unknown-variant", ERR, "a file of a known format's shape that is none of the "
            "variants mjlog reads (tenhou.net/6 with tiles as strings, Mahjong Soul's messages "
            "left as binary): one diagnostic, not one per value")),
    *_rows("diagnostic", "every writer",
           ("cannot-write", ERR, "the target format cannot hold this game (a Taiwanese game "
            "in tenhou.net/6 or mjai), or its writer failed (a bug in mjlog, reported with "
            "the exception); nothing is written for it")),
    *_rows("diagnostic", "Tenhou XML",
           ("xml-syntax", ERR, "malformed XML; what parses before it is read"),
           ("xml-dtd-refused", WARN, "a document type declaration, not read: nothing it "
            "names is opened and its entities stay undefined"),
           ("not-mjlog", ERR, "XML, but not a Tenhou mjlog document"),
           ("bad-element", ERR, "an element that cannot be read; it is skipped"),
           ("unknown-element", INFO, "an element mjlog does not know, kept as an unknown event"),
           ("missing-go", WARN, "no <GO> element: the table's rules are guessed"),
           ("round-without-result", WARN, "a round that ends without a win or draw"),
           ("truncated", WARN, "the record stops before its game end; what came before is "
            "replayed"),
           ("no-final-scores", WARN, "an empty owari: the game's final scores are not stated")),
    *_rows("diagnostic", "JSON Lines, mjai",
           ("json-syntax", ERR, "a line (or document) that is not JSON"),
           ("bad-event", ERR, "a JSON value that does not fit its event, with its JSON path"),
           ("no-game-start", WARN, "events before any game start")),
    *_rows("diagnostic", "mjai",
           ("unsupported-dialect", ERR, "an mjai event of a dialect mjlog does not read"),
           ("annotations-dropped", INFO, "per-event bot annotations (logs, meta) not kept"),
           ("error-event", WARN, "the log ends with an error event (a bot broke the game)")),
    *_rows("diagnostic", "tenhou.net/6",
           ("bad-value", ERR, "a value of the wrong type or range, with its JSON path"),
           ("unplaceable-move", ERR, "no order of a round's moves places them all; the round "
            "is not read"),
           ("ambiguous-call", WARN, "two orders of a round's moves fit; the first is taken"),
           ("call-order-deduced", INFO, "the order of moves the format leaves out was deduced"),
           ("no-result", WARN, "a round without a result"),
           ("unknown-result", WARN, "a result word mjlog does not know"),
           ("unknown-yaku", WARN, "a yaku name mjlog does not know, kept as written (in "
            "notation, with the closest known names)"),
           ("read-from-link", INFO, "the game was read from a tenhou.net viewer link in a "
            "text (a converter's report)")),
    *_rows("diagnostic", "Mahjong Soul",
           ("not-a-game", ERR, "JSON that is not a game record of its platform (no head and "
            "messages, or a list of round events without its game)"),
           ("unknown-message", INFO, "a message mjlog does not read, passed over"),
           ("binary-syntax", ERR, "bytes of Mahjong Soul's binary record that are not the "
            "message expected, with their offset; the messages before them are read"),
           ("red-fives-inferred", INFO, "a record that states no rules (no detail_rule: the "
            "binary form alone): red fives are read from the walls, none when no round's "
            "wall or deal holds one, else the platform's")),
    *_rows("diagnostic", "Riichi City",
           ("vote-termination", INFO, "the players voted to end the game in this round: it has "
            "no result"),
           ("unsupported-rules", INFO, "a friend room's rules mjlog does not know (open "
            "riichi, luck points, yakitori): wins and payments under them are not verified")),
    *_rows("diagnostic", "kobalab",
           ("draw-deduced", WARN, "a tsumo win whose draw the record leaves out: the winning "
            "hand's last tile is drawn there"),
           ("misnamed-key", INFO, "a key spelled otherwise than the format's (\"playerr\"), "
            "read where it is")),
    *_rows("diagnostic", "notation",
           ("not-notation", ERR, "the first line is not 'mjlog-notation 1'"),
           ("bad-header", ERR, "a header line that cannot be read"),
           ("bad-round", ERR, "a round header or hands line that cannot be read"),
           ("bad-token", ERR, "a move that cannot be read"),
           ("bad-tile", ERR, "a tile that cannot be read"),
           ("bad-ids", ERR, "an ids line that does not fit the tiles named"),
           ("bad-result", ERR, "a result line that cannot be read"),
           ("valued", INFO, "a win written without its fu and points: mjlog valued it (the "
            "note shows the value)")),
    *_rows("diagnostic", "score sheets (Pantheon textlog, CSV)",
           ("sheet-syntax", ERR, "a line of a score sheet that cannot be read, at its line "
            "and column; it is left out")),
    *_rows("diagnostic", "Botzone MCR data",
           ("botzone-syntax", ERR, "a line of a Botzone match that cannot be read, at its "
            "line and column; it is left out"),
           ("botzone-move", ERR, "a Botzone move that does not fit the tiles read (a claim "
            "with no discard to take, a fifth copy of a tile); it is left out")),
)

FINDINGS: Final = (
    *_rows("finding", "replay",
           ("discard-not-in-hand", ERR, "a discarded tile is not among the player's tiles"),
           ("call-not-in-hand", ERR, "tiles a call uses from hand are not there"),
           ("call-not-last-discard", ERR, "a chi, pon or open kan takes a tile that is not the "
            "last discard, or from the wrong player"),
           ("out-of-turn", ERR, "a draw, discard, call or 天聽 declaration when it is not that "
            "player's move"),
           ("tile-reused", ERR, "one physical tile is dealt, drawn or shown twice"),
           ("wall-exhausted", ERR, "a draw when the live wall is empty"),
           ("win-hand-mismatch", ERR, "the winning hand in the record is not the hand the "
            "replay holds"),
           ("start-scores-mismatch", ERR, "a round starts with other scores than the last "
            "ended with"),
           ("kyotaku-mismatch", ERR, "a round starts with other riichi sticks than the table "
            "holds"),
           ("riichi-scores-mismatch", ERR, "scores recorded after a riichi deposit differ"),
           ("result-scores-mismatch", ERR, "a result's scores before payment differ from the "
            "table's"),
           ("deltas-unbalanced", ERR, "a result's deltas do not add up to the riichi sticks "
            "collected"),
           ("round-end-scores-mismatch", ERR, "recorded scores after a round differ"),
           ("final-scores-mismatch", ERR, "the game's final scores differ from the replay's"),
           ("unreplayable-event", ERR, "an event that cannot apply to this table at all (a "
            "seat or tile id outside it)"),
           ("partial-record", INFO, "tiles nobody wrote down: tile checks cover the tiles "
            "named"),
           ("chombo-written", INFO, "a score sheet's chombo: the hand ends there, and the "
            "settlement charges the ruleset's chombo to its offender"),
           ("internal-error", ERR, "the engine, a check or an observer failed on an event that "
            "fits the table: a bug in mjlog, reported with who failed and the exception")),
    *_rows("finding", "wall check",
           ("wall-dealt-mismatch", ERR, "a seat's dealt hand is not the one the wall deals"),
           ("wall-dice-mismatch", ERR, "the recorded dice differ from the shuffle's"),
           ("wall-dora-mismatch", ERR, "a dora indicator (first or after a kan) differs"),
           ("wall-draw-mismatch", ERR, "a draw from the live wall is not the wall's tile"),
           ("wall-rinshan-mismatch", ERR, "a replacement draw is not the wall's tile"),
           ("wall-ura-mismatch", ERR, "an ura indicator shown at a win differs"),
           ("wall-undealable", ERR, "a stated wall and dice that cannot be dealt, or a "
            "published wall that cannot be read"),
           ("wall-commitment-mismatch", ERR, "a published wall that is not the one the round "
            "committed to before it was played (its md5 or salted sha256 differs)"),
           ("wall-uncommitted", INFO, "a published wall without a commitment that can be "
            "checked (none given, or a salt not revealed): its tiles are still compared (one "
            "per record)"),
           ("wall-unverifiable", INFO, "no seed whose shuffle is known and no stated wall (one "
            "per round)"),
           ("wall-excerpt", INFO, "the record starts at a later deal of its seed")),
    *_rows("finding", "audit",
           ("ruleset-not-applied", INFO, "--rules names a preset of another rule family or "
            "number of players than the record's: the record is audited under its own "
            "ruleset (--force-rules applies the preset)"),
           ("rule-option-unapplied", INFO, "a --set option that the record's ruleset (another "
            "family) does not have"),
           ("unjudged", INFO, "a rule check, or a win's value, that a tile nobody wrote "
            "down decides: not judged (never a violation or a mismatch); the note names the "
            "check or the win and the unknown tile"),
           ("findings-capped", WARN, "a game with more findings of one kind than an audit "
            "keeps (1,000): the first are kept, the rest counted")),
    *_rows("finding", "replay viewer",
           ("page-capped", WARN, "a game with more moves than a replay page draws (50,000; a "
            "whole game has about 1,500): the page stops there and says how many it left "
            "out; the audit judges them all")),
    *_rows("finding", "mjlog event",
           ("event-game-unreadable", ERR, "a game's record or sheet that is missing, of no "
            "format mjlog reads, or without the game the event file names"),
           ("event-game-incomplete", ERR, "a game that does not reach its end: no final "
            "points, it counts for nobody"),
           ("event-game-audit", WARN, "the audit found violations, score mismatches or "
            "errors in a game (the referee's report shows each; the settlement corrects "
            "payments and chombo)"),
           ("event-unknown-player", ERR, "a name in a game that is no player's name or alias"),
           ("event-sources-disagree", ERR, "a game's tile record and score sheet seat other "
            "players or give other final points"),
           ("event-game-not-zero-sum", ERR, "a game's final scores (with the riichi sticks "
            "left on the table) do not add up to what the table started with, or its points "
            "(before chombo penalties) not to zero"),
           ("event-table-mismatch", WARN, "a game's players are not those of its table in "
            "the schedule, or no table of the schedule has them"),
           ("event-player-twice-in-round", ERR, "a player at two tables (or two seats) of one "
            "round, in the schedule or in the games played"),
           ("event-game-count", WARN, "a player's games played are not as many as the "
            "schedule gives them")),
)

MISMATCHES: Final = _rows(
    "mismatch", "score verification",
    ("win-unscorable", ERR, "the hand the replay holds is no winning hand with a yaku"),
    ("win-yaku", ERR, "a yaku (or its han, or a Taiwanese pattern's 台) differs; one per yaku"),
    ("win-fu", ERR, "fu differ"),
    ("win-han", ERR, "total han differ"),
    ("win-tai", ERR, "Taiwanese: total 台 differ"),
    ("win-points", ERR, "the hand's value differs (ron payment, tsumo total)"),
    ("win-limit", ERR, "the limit name (mangan … yakuman) differs"),
    ("win-indicators", ERR, "the dora indicators the win states are not those shown"),
    ("win-pao", ERR, "the liable player (pao) differs"),
    ("win-deltas", ERR, "a seat's score change differs; one per seat"),
    ("draw-tenpai", ERR, "a seat shown tenpai (or not) at an exhaustive draw is not (or is) "
     "tenpai on the table"),
    ("draw-nagashi", ERR, "nagashi mangan claimed or missed"),
    ("draw-deltas", ERR, "a seat's payment at a draw differs"),
    ("next-round", ERR, "the next round's dealer, round or honba (連莊) differ"),
    ("game-end", ERR, "the game ends where the rules play on (after an abortive draw the "
     "round is always played again)"),
)

CODES: Final[tuple[Code, ...]] = (*DIAGNOSTICS, *FINDINGS, *MISMATCHES)
"""Every code but the rule violations, which their checks list."""


def codes_of(kind: str) -> frozenset[str]:
    """The codes of one kind (``diagnostic``, ``finding`` or ``mismatch``)."""
    return frozenset(c.code for c in CODES if c.kind == kind)
