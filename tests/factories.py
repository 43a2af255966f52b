"""factory_boy factories shared across the suite."""

from __future__ import annotations

import factory
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

DEFAULT_PASSWORD = "correct-horse-battery-staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("email",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.Sequence(lambda n: f"user{n}@example.org")
    password = factory.PostGenerationMethodCall("set_password", DEFAULT_PASSWORD)

    @factory.post_generation
    def verified(obj, create, extracted, **kwargs):
        """Verified email by default; UserFactory(verified=False) for a fresh sign-up."""
        obj.save()
        if create and extracted is not False:
            EmailAddress.objects.update_or_create(
                user=obj, email=obj.email, defaults={"verified": True, "primary": True}
            )


class StaffUserFactory(UserFactory):
    is_staff = True
    is_superuser = True
