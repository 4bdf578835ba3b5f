"""Taiwanese 16-tile mahjong (台湾式十六張麻将): the ``taiwan16`` rule family.

``docs/rules.md`` sections 3 and 4 and the source they distil (seed 003) are
the specification. The family plugs into mjlog where the families differ:

* :mod:`mjlog.families.taiwan16.hand`: the winning shapes (five sets and a pair,
  嚦咕嚦咕 and 十六不搭) and their waits, on the shared hand kernel;
* :mod:`mjlog.families.taiwan16.tai`: 台 scoring of every pattern of the source with
  its exclusions, and the payments with 底, 台 value and the dealer's
  莊家/連莊/拉莊 bonus;
* :mod:`mjlog.families.taiwan16.referee` and :mod:`mjlog.families.taiwan16.checks`: the checks
  (過水, T1-T5, flower faults, false wins) and the memory they share;
* :mod:`mjlog.families.taiwan16.scorer`: score verification of every win and draw;
* :mod:`mjlog.families.taiwan16.play`: legal random play, for the generator and tests;
* :mod:`mjlog.families.taiwan16.family`: the family as the registry knows it.

The replay engine, the events and the notation are shared with the riichi
family; what differs there (tile count, dead wall, the dealer's seventeenth
tile) comes from :class:`mjlog.core.ruleset.TaiwanOptions`.
"""
