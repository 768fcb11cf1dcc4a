"""Accounts: sign up and the account page (log in/out and passwords are Django's auth views)."""

from __future__ import annotations

from axes.utils import reset as axes_reset
from django import forms
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import (
    PasswordResetForm,
    SetPasswordForm,
    UserCreationForm,
    UsernameField,
)
from django.contrib.auth.views import PasswordResetConfirmView, PasswordResetView
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from .. import names, throttles
from ..models import Membership


class NormalisedUsernameField(UsernameField):
    """A username in its one spelling (NFKC, no invisible characters): "ana" + a zero-width
    space is "ana", and so already taken if "ana" is."""

    def to_python(self, value: str | None) -> str:
        value = super().to_python(value)
        if self.max_length is not None and len(value) > self.max_length:
            return value  # refused by the length check: not worth normalising
        return names.normalise(value)


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail (optional)"),
        required=False,
        help_text=_("Only used to send you a link if you forget your password."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")
        field_classes = {"username": NormalisedUsernameField}

    def clean_username(self) -> str | None:
        username = super().clean_username()  # refuses a username taken in another case
        if username:
            other = names.looks_like(username, _usernames_like(username), casefold=True)
            if other is not None:
                raise forms.ValidationError(
                    _("This username would look just like an existing one: choose another.")
                )
        return username


def _usernames_like(username: str) -> list[str]:
    """The usernames that could look like ``username``: the one spelt as its skeleton, and
    every username with a character outside ASCII (few; the look-alikes are among them)."""
    User = get_user_model()
    field = User.USERNAME_FIELD
    return list(
        User.objects.filter(
            Q(**{f"{field}__iexact": names.skeleton(username)})
            | Q(**{f"{field}__regex": r"[^\x01-\x7f]"})
        ).values_list(field, flat=True)
    )


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("account")
    form = SignUpForm(request.POST or None)
    # Back where the visitor was going (an invite link, most often), if it is on this site.
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    status = 200
    if request.method == "POST" and form.is_valid():
        if throttles.allow_sign_up(request):
            user = form.save()
            # Signed in at once: the new password was just typed twice, nothing to throttle.
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(next_url or "home")
        form.add_error(
            None,
            _(
                "Too many accounts were created from your network in the last hour: "
                "please try again later."
            ),
        )
        status = 429
    return render(request, "accounts/signup.html", {"form": form, "next": next_url}, status=status)


class PasswordReset(PasswordResetView):
    """Django's reset form, with reset mails limited per client address and per mailbox.

    The refusal reads the same whether or not an account has that e-mail address."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        if throttles.allow_password_reset(self.request, form.cleaned_data["email"]):
            return super().form_valid(form)
        form.add_error(
            None,
            _(
                "Too many password-reset mails were asked for in the last hour: please try "
                "again later, and look for the mails already sent."
            ),
        )
        return self.render_to_response(self.get_context_data(form=form), status=429)


class PasswordResetConfirm(PasswordResetConfirmView):
    """Django's "set a new password" page; a new password set this way also lifts any login
    lockout on the username. Whoever can read the account's mail is its owner, and must not
    stay locked out by somebody else's wrong guesses."""

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        response = super().form_valid(form)
        axes_reset(username=form.user.get_username())
        return response


@login_required
def account(request: HttpRequest) -> HttpResponse:
    memberships = Membership.objects.filter(user=request.user).select_related("club")
    return render(
        request,
        "accounts/account.html",
        {"memberships": memberships.order_by("club__name")},
    )
