"""Hand analysis: the fast shape kernel (:mod:`mjlog.families.riichi.hand.shape`)."""
