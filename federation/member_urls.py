"""Membership pages, mounted at /<language>/members/ (config.urls)."""

from django.urls import path

from federation import member_mail_views, views

app_name = "membership"

urlpatterns = [
    path("", views.public_list, name="public_list"),
    path("apply/", views.apply, name="apply"),
    path("me/", views.me, name="me"),
    path("me/edit/", views.edit, name="edit"),
    path("me/export.json", views.export, name="export"),
    path("me/erase/", views.erase, name="erase"),
    path("me/card/", views.card, name="card"),
    path("me/card.pdf", views.card_pdf, name="card_pdf"),
    path("me/mail/", member_mail_views.mail_preferences, name="mail_preferences"),
    path("unsubscribe/<str:token>/", member_mail_views.unsubscribe, name="unsubscribe"),
    path("check/<uuid:public_id>/", views.check, name="check"),
    path("invoices/<str:number>/", views.invoice_detail, name="invoice"),
    path("invoices/<str:number>.pdf", views.invoice_pdf, name="invoice_pdf"),
    path("invoices/<str:number>/pay/", views.online_payment_start, name="online_payment_start"),
    path("pay/<uuid:token>/", views.online_payment, name="online_payment"),
    path("pay/<uuid:token>/done/", views.online_payment_return, name="online_payment_return"),
    path("receipts/<str:receipt_number>.pdf", views.receipt_pdf, name="receipt"),
    path("clubs/", views.my_clubs, name="clubs"),
    path("clubs/<int:pk>/", views.club_members, name="club"),
    path("clubs/<int:pk>/members.csv", views.club_members_csv, name="club_csv"),
]
