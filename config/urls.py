from django.contrib import admin
from django.urls import include, path

from games.views.accounts import PasswordReset, PasswordResetConfirm

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # Django's own, but throttled (reset mails) and lifting the login lockout (a new password).
    path("accounts/password_reset/", PasswordReset.as_view(), name="password_reset"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        PasswordResetConfirm.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("games.urls")),
]
