"""What membership tells the apps that read it, without importing them (ratings keeps the
club ranking, which counts active members only: decision 0821)."""

from django.dispatch import Signal

# sent with ``member_ids`` (a list) once the stored status of those members may have changed
# (their paid coverage, their club or consent), after the transaction commits
members_changed = Signal()
