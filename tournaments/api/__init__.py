"""The tournament API under /api/v1/ (the contract of issue 11: names are kept exactly), one
module per subject, as in ``tournaments.services`` (routes: ``tournaments.api_urls``):

- ``lifecycle``: the calendar, a tournament created, changed, submitted, decided, MERS;
- ``players``: registered players, in bulk; removing and withdrawing one;
- ``seating``: the seating and its draw;
- ``results``: results posted, confirmed and corrected; the standings; the EMA's sheet;
- ``penalties``: penalties, late arrivals, absences, revealing hidden standings, unbalanced
  tables kept as recorded;
- ``table_entry``: a session's tables as entered at the table;
- ``entries``: players' own entries;
- ``_common``: the view base, serializer errors as error items, the tournament asked for.

Each module keeps its serializers beside its views. Visibility first (404 for a tournament
the caller may not see: another organizer's draft), then the role (403). Errors are 400
``{"errors": [{"row", "session", "table", "seat", "hand", "field", "code", "message"}]}``
with the keys that apply (a problem of the results: ``Problem.to_dict`` of the scoring core,
the message in the caller's language). A service's refusal (``core.errors.DomainError``) is
never caught here: ``core.api_errors.exception_handler`` answers it, and ``error_context``
names its field or adds to its body.
"""
