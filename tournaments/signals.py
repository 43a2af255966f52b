"""The hooks other apps use to follow tournaments, without tournaments importing them.

``results_confirmed`` is sent inside the transaction that confirms or corrects a
tournament's results, with ``tournament`` (the tournament, already saved). The ratings app
re-rates from the tournament's period on (``ratings.receivers``); a receiver that raises
rolls the confirmation back.

``players_merged`` is sent inside the transaction of a merge of two players (or its undo),
with ``player`` (the player kept) and ``rulesets`` (those whose results moved): the ratings
app recomputes those rulesets (``ratings.receivers``).

``tournament_accredited`` is sent inside the transaction of an officer's accreditation, with
``tournament``. The content app writes a draft news post for editors (``content.receivers``).
"""

from django.dispatch import Signal

results_confirmed = Signal()
players_merged = Signal()
tournament_accredited = Signal()
