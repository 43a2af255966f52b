from django.core.management.base import BaseCommand, CommandError

from federation.models import MembershipYear
from federation.services import dues_invoices_issue_for_year


class Command(BaseCommand):
    help = (
        "Issue the membership year's invoices to every approved paying member who has none "
        "yet (safe to re-run)."
    )

    def add_arguments(self, parser):
        parser.add_argument("year", type=int)

    def handle(self, *args, **options):
        try:
            year = MembershipYear.objects.get(year=options["year"])
        except MembershipYear.DoesNotExist as error:
            raise CommandError(f"no membership year {options['year']}") from error
        issued = dues_invoices_issue_for_year(membership_year=year, issued_by=None)
        self.stdout.write(f"{len(issued)} invoice(s) issued for {year.year}")
