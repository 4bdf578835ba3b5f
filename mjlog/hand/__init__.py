"""Hand analysis: the fast shape kernel (:mod:`mjlog.hand.shape`)."""
