"""Membership's pure rules: dates, amounts and statuses in, stable codes out; no Django
(the architecture test checks it, ``mypy --strict`` types them).

- ``dues``: what is owed, pro-rating, invoice balances, the one status function
  (``membership_status``: applied ... lapsed) and the reminder stages.
- ``standing``: good standing, the one definition (active or in the grace period).
- ``bank_statement``: a bank statement CSV read into dataclasses, line-numbered errors.

The selectors and services load the rows and call these functions.
"""
