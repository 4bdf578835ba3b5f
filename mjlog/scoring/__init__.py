"""Scoring: the value of each win and every payment, recomputed from the replay.

:mod:`mjlog.scoring.yaku` is the yaku table; :mod:`mjlog.scoring.situation`
takes the facts of a win from the table; :mod:`mjlog.scoring.riichi` values a
riichi win (through the ``mahjong`` library); :mod:`mjlog.scoring.payments`
turns values into score changes; :mod:`mjlog.scoring.verify` compares all of
it with what a record says.
"""
