"""Scoring: the value of each win and every payment, recomputed from the replay.

:mod:`mjlog.families.riichi.scoring.yaku` is the yaku table;
:mod:`mjlog.families.riichi.scoring.situation`
takes the facts of a win from the table; :mod:`mjlog.families.riichi.scoring.riichi` values a
riichi win (through the ``mahjong`` library); :mod:`mjlog.families.riichi.scoring.payments`
turns values into score changes; :mod:`mjlog.families.riichi.scoring.verify` compares all of
it with what a record says.
"""
