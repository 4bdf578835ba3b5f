"""Riichi mahjong: the ``riichi`` rule family (rules, scoring, hand shapes,
random players, decision facts).
"""
