"""The tournaments' pure rules: plain values in, plain values out, no Django (the
architecture test checks it, ``mypy --strict`` types them).

- ``states``: a tournament's states and the one table of which step is allowed in which
  state and where it leads; the "results open" states.
- ``entry_price``, ``entry_admission``, ``refund``: what an entry costs, who may enter and
  when, what a withdrawal gets back.
- ``lateness``: the points deducted for arriving late (3.11.2).
- ``session_players``: who must (may) have a seat in a session; ``withdrawn_ranking``: where
  substitutes and withdrawn players are ranked.
- ``seating_draw``, ``seating_designs``: the seating draw and the repeat-free designs it
  starts from.
- ``results_files``: posted results (JSON, CSV) read into dataclasses; ``results_check``:
  what they mean, checked through the scoring core.
- ``clock_time``: the seconds run and left on a session's clock, and when the room is
  warned that time is nearly up; ``room``: the session the room screen shows.

The services load the rows, call these functions and write what they decide.
"""
