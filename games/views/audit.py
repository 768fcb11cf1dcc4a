"""A club's audit trail: who did what, and when (kept in UTC, shown in the club's time zone).
Owners only."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .. import userjson
from ..access import get_club, require_owner
from ..models import AuditEntry

ENTRIES_PER_PAGE = 50


@login_required
def club_audit(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_club(request, club_id)
    require_owner(request, club)
    page = Paginator(AuditEntry.objects.for_club(club), ENTRIES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    for entry in page:
        entry.data_text = userjson.readable(entry.data, indent=1)
    return render(request, "clubs/audit.html", {"club": club, "page": page})
