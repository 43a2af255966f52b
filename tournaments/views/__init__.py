"""Tournament pages, one module per subject, as in ``tournaments.services`` (routes:
``tournaments.urls``). Thin: check visibility and role, call one service or selector,
render.

- ``calendar``: the public calendar and a tournament's page;
- ``lifecycle``: the organizer's new tournament, edit, manage page, submit, confirm;
- ``players``: registering, removing and withdrawing a player;
- ``seating``: the draw and a session's printable table distribution;
- ``results``: the score-sheet form and the CSV upload;
- ``standings``: the standings (page, CSV, PDF) and the EMA's results sheet;
- ``entries``: players' own entries, the organizer's entries page and exports, the
  treasurer's view of entry fees;
- ``table_entry``: the organizer's session view and the table's page reached by its token;
- ``corrections``: a registered player's names, country and EMA number corrected by the
  organizer or an officer; the EMA sheet's page (the sheet as it reads, or who to fix);
- ``mers``: the accreditation officer's MERS flag and weight;
- ``clock``: the session clock's screen and its controls on the session view;
- ``penalties``: penalties, late arrivals and absences on the session view, revealing the
  standings;
- ``_common``: the tournament as the reader may reach it, results' problems in words.

Officers decide in the Wagtail admin (``tournaments.viewsets``). A service's refusal is shown
with ``core.errors`` (``errors_as_messages``, ``errors_on_form``, ``errors_collected``), never
caught here.
"""
