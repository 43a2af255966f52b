"""The hooks other apps use to follow tournaments, without tournaments importing them.

``results_confirmed`` is sent inside the transaction that confirms or corrects a
tournament's results, with ``tournament`` (the tournament, already saved). The ratings app
re-rates from the tournament's period on (``ratings.receivers``); a receiver that raises
rolls the confirmation back.

``results_imported`` is sent inside the transaction of an import of a past tournament's final
standings that added or changed results (decision 0810), with ``tournament``: the ratings
app re-rates as after a confirmation; no news is drafted for the past.

``players_merged`` is sent inside the transaction of a merge of two players (or its undo),
with ``player`` (the player kept), ``player_ids`` (both players) and ``rulesets`` (those
whose results moved): the ratings app re-rates those rulesets (``ratings.receivers``; on
the task queue, decision 0825).

``mers_changed`` is sent inside the transaction of the officer's MERS decision (flag or
weight, at accreditation or later), with ``tournament``: the ratings app refreshes the stored
EMA ranking of its ruleset.

``tournament_accredited`` is sent inside the transaction of an officer's accreditation, with
``tournament``. The content app writes a draft news post for editors (``content.receivers``).
"""

from django.dispatch import Signal

results_confirmed = Signal()
players_merged = Signal()
results_imported = Signal()
tournament_accredited = Signal()
mers_changed = Signal()
