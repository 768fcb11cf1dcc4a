"""A club's members: the list, invite links, joining with a link, removing a member."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from .. import services
from ..access import (
    get_club,
    get_invite_by_token,
    get_owned_club,
    get_owned_invite,
    get_owned_membership,
    is_owner,
)
from ..models import Membership


class InviteForm(forms.Form):
    max_uses = forms.IntegerField(
        label=gettext_lazy("How many people may join with it"),
        min_value=1,
        max_value=100,
        initial=1,
    )


def _is_last_owner(membership: Membership) -> bool:
    return (
        membership.role == Membership.Role.OWNER
        and not Membership.objects.filter(club_id=membership.club_id, role=Membership.Role.OWNER)
        .exclude(pk=membership.pk)
        .exists()
    )


@login_required
def club_members(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_club(request, club_id)
    owner = is_owner(request, club)
    context = {
        "club": club,
        "is_owner": owner,
        "memberships": club.memberships.select_related("user").order_by("role", "user__username"),
    }
    if owner:
        invites = [invite for invite in club.invites.all() if invite.is_usable]
        for invite in invites:
            invite.url = request.build_absolute_uri(reverse("invite-join", args=[invite.token]))
        context.update(invites=invites, invite_form=InviteForm())
    return render(request, "clubs/members.html", context)


@login_required
@require_POST
def invite_create(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_owned_club(request, club_id)
    form = InviteForm(request.POST)
    if form.is_valid():
        services.create_invite(club=club, by=request.user, max_uses=form.cleaned_data["max_uses"])
        messages.success(request, _("A new invite link is ready: send it to the people to invite."))
    else:
        messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
    return redirect("club-members", club_id=club.pk)


@login_required
@require_POST
def invite_revoke(request: HttpRequest, invite_id: int) -> HttpResponse:
    invite = get_owned_invite(request, invite_id)
    services.revoke_invite(invite=invite, by=request.user)
    messages.success(request, _("The invite link was withdrawn: it no longer works."))
    return redirect("club-members", club_id=invite.club_id)


@login_required
@require_http_methods(["GET", "POST"])
def invite_join(request: HttpRequest, token: str) -> HttpResponse:
    invite = get_invite_by_token(request, token)
    already = invite.club.memberships.filter(user=request.user).exists()
    if already:
        messages.info(request, _("You are already a member of this club."))
        return redirect("club", club_id=invite.club_id)
    refusal = invite.refusal()
    if request.method == "POST" and refusal is None:
        try:
            services.join_club(invite=invite, user=request.user)
        except services.ServiceError as exc:
            refusal = exc.message
        else:
            messages.success(request, _("Welcome to %(club)s!") % {"club": invite.club.name})
            return redirect("club", club_id=invite.club_id)
    return render(
        request,
        "accounts/join.html",
        {"invite": invite, "club": invite.club, "refusal": refusal},
        status=200 if refusal is None else 410,
    )


@login_required
@require_http_methods(["GET", "POST"])
def member_remove(request: HttpRequest, membership_id: int) -> HttpResponse:
    membership = get_owned_membership(request, membership_id)
    club = membership.club
    refusal = _("The club's last owner cannot be removed.") if _is_last_owner(membership) else None
    if request.method == "POST" and refusal is None:
        try:
            services.remove_member(membership=membership, by=request.user)
        except services.ServiceError as exc:
            refusal = exc.message
        else:
            messages.success(
                request,
                _("%(name)s is no longer a member of the club.")
                % {"name": membership.user.get_username()},
            )
            if membership.user_id == request.user.pk:
                return redirect("home")
            return redirect("club-members", club_id=club.pk)
    return render(
        request,
        "clubs/confirm_delete_membership.html",
        {"club": club, "membership": membership, "refusal": refusal},
        status=200 if refusal is None else 409,
    )
