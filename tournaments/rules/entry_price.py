"""What an entry costs: the member's or the other price, and the reduced price claimed
(docs/decisions/0706-entries-and-waiting-list.md,
docs/decisions/0716-reduced-fee-hand-added-places-venue-exports.md)."""

from __future__ import annotations

from decimal import Decimal


def entry_fee(
    *, fee_member: Decimal | None, fee_other: Decimal | None, fee_reduced: Decimal | None,
    is_member: bool, reduced: bool = False,
) -> Decimal:
    """The member's or the other price (one given: everybody's; none: free). With the
    reduced price claimed, the lower of the reduced price and the person's own."""
    fee = fee_member if is_member else fee_other
    if fee is None:  # one price given: it is everybody's
        fee = fee_other if is_member else fee_member
    price = Decimal(fee or 0)
    if reduced and fee_reduced is not None:
        price = min(price, Decimal(fee_reduced))
    return price
