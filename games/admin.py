from django.contrib import admin

from .models import AuditEntry, Club, ClubInvite, GameNight, Membership, Move, Play, Player, Seat


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user"]
    list_filter = ["club"]
    search_fields = ["name"]
    autocomplete_fields = ["user"]


@admin.register(GameNight)
class GameNightAdmin(admin.ModelAdmin):
    list_display = ["date", "club", "place"]
    list_filter = ["club"]
    date_hierarchy = "date"


class SeatInline(admin.TabularInline):
    """Who sat where is part of the play the referee judged: shown, never changed here."""

    model = Seat
    extra = 0
    can_delete = False
    fields = readonly_fields = ["position", "player", "score", "rank", "is_winner"]

    def has_add_permission(self, request, obj=None):
        return False


class MoveInline(admin.TabularInline):
    """Moves are never edited in place: the log is read-only here (undo from the play page)."""

    model = Move
    extra = 0
    can_delete = False
    readonly_fields = ["seq", "data", "entered_by", "entered_at", "undone_at", "undone_by"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Play)
class PlayAdmin(admin.ModelAdmin):
    """A play is started, played, abandoned and deleted on the site, through the services, which
    judge, rate and audit: the admin shows it and never changes it behind the referee's back."""

    list_display = ["__str__", "game", "club", "status", "started_at"]
    list_filter = ["game", "status", "club"]
    readonly_fields = [
        "club", "night", "game", "setup", "status", "started_at", "ended_at", "created_by",
        "details",
    ]  # fmt: skip
    inlines = [SeatInline, MoveInline]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["play", "seq", "entered_by", "entered_at", "undone_at"]
    readonly_fields = ["play", "seq", "data", "entered_by", "entered_at", "undone_at", "undone_by"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "role"]
    list_filter = ["role", "club"]


@admin.register(ClubInvite)
class ClubInviteAdmin(admin.ModelAdmin):
    list_display = ["club", "created_by", "created_at", "expires_at", "uses", "max_uses", "revoked"]
    list_filter = ["revoked", "club"]
    readonly_fields = ["token", "uses", "created_by", "created_at"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """The audit is a record: read-only here."""

    list_display = ["at", "club", "actor_name", "action", "summary"]
    list_filter = ["action", "club"]
    search_fields = ["actor_name", "summary"]
    date_hierarchy = "at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
