"""Rule checks of the riichi family: what a riichi ruleset forbids, found in a replay.

The replay engine (:mod:`mjlog.replay.engine`) checks that a record is
consistent with itself; the score verifier (:mod:`mjlog.families.riichi.scoring.verify`)
that its values are right. This package checks the *rules* that differ
between riichi tables, one unit (:class:`mjlog.families.check.Check`) per rule or tight
family of rules:

* :mod:`mjlog.families.riichi.rules.kan`: kan timing, the four-kan limit, kan after riichi,
  kan dora, robbing a closed kan, replacement draws (section 1, K1-K7);
* :mod:`mjlog.families.riichi.rules.sakizuke`: kanzen sakizuke (section 2);
* :mod:`mjlog.families.riichi.rules.calls`: riichi preconditions and calls after riichi, chi
  from the left, swap-calling (section 7);
* :mod:`mjlog.families.riichi.rules.furiten`: furiten in its forms (section 7);
* :mod:`mjlog.families.riichi.rules.draws`: abortive draws and multiple rons (section 7).

:mod:`mjlog.families.riichi.rules.referee` keeps what they share;
:mod:`mjlog.families.riichi.family`
lists them in judging order for the riichi family; :mod:`mjlog.families.riichi.rules.evidence`
writes the pictures and consequences a violation carries.

Not checked here: anything the engine or the score verifier already reports
(turn order, tiles in hand, payments, noten payments, honba, the next dealer,
pao), and call priority, which a record cannot show (it keeps the call that
was made, not the ones that were wanted).
"""
