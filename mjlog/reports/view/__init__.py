"""The replay viewer: a game as a page that steps through it move by move.

:mod:`mjlog.reports.view.model` replays a record (with the audit watching the same
replay) into per-step data; :mod:`mjlog.reports.view.page` writes that data into a
self-contained HTML page (``mjlog view``), and the audit's page for referees
(``mjlog audit --format html``). The page draws what the data says and
computes nothing about the game.
"""
