"""Organizers hear by mail when their tournament is accredited or rejected (issue 28), in
their own language, with the officer's reason for a rejection."""

from __future__ import annotations

from tournaments import services


def test_the_organizer_is_told_of_an_accreditation(
    make_tournament, officer, mailoutbox, django_capture_on_commit_callbacks
):
    t = make_tournament("submitted")
    t.organizer.language = "en"
    t.organizer.save(update_fields=["language"])
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_decide(tournament=t, user=officer, decision="accredit")
    [mail] = mailoutbox
    assert mail.to == [t.organizer.email]
    assert t.name in mail.subject and "Accredited" in mail.subject
    assert f"/tournaments/{t.pk}/manage/" in mail.body


def test_a_rejection_carries_the_reason_in_the_organizers_language(
    make_tournament, officer, mailoutbox, django_capture_on_commit_callbacks
):
    t = make_tournament("submitted")
    t.organizer.language = "ru"
    t.organizer.save(update_fields=["language"])
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_decide(tournament=t, user=officer, decision="reject",
                                   reason="Даты совпадают с чемпионатом.")
    [mail] = mailoutbox
    assert "Даты совпадают с чемпионатом." in mail.body
    assert "не аккредитован" in mail.body


def test_a_refused_decision_sends_nothing(
    make_tournament, officer, mailoutbox, django_capture_on_commit_callbacks
):
    t = make_tournament("submitted")
    with django_capture_on_commit_callbacks(execute=True):
        try:
            services.tournament_decide(tournament=t, user=officer, decision="reject")
        except services.TournamentError as error:
            assert error.code == "reason_required"
    assert mailoutbox == []
