"""Chinese Official mahjong (MCR, 国标麻将): the ``mcr`` rule family.

The Chinese Official rules of 2006 (中国麻将竞赛规则) and the WMO's English edition,
*Mahjong Competition Rules* (the "Green Book", cited ``MCR N`` by its chapter-three
sections), are the specification; ``docs/mcr.md`` puts them in our words. The family
plugs into mjlog where the families differ:

* :mod:`mjlog.families.mcr.options`: the option group (the table: 144 tiles with eight flowers,
  13 dealt and a fourteenth to the dealer, no dead wall), its flat options and the
  ``mcr`` preset;
* :mod:`mjlog.families.mcr.fan` and :mod:`mjlog.families.mcr.payments`: fan counting (through a
  library) and the payments of a win and of a false win;
* :mod:`mjlog.families.mcr.referee` and :mod:`mjlog.families.mcr.checks`: the facts of a win built
  from the table, and the checks (false wins, too few fan, robbing a concealed kong,
  one winner per tile, flowers, the number of tiles);
* :mod:`mjlog.families.mcr.scorer`: score verification of every win (or false win) and draw;
* :mod:`mjlog.families.mcr.play`: legal random play, for the generator and tests;
* :mod:`mjlog.families.mcr.family`: the family as the registry knows it.

The replay engine, the events and the notation are shared with the other families;
flowers are :class:`~mjlog.core.events.Flower` events as in Taiwanese games.
"""
