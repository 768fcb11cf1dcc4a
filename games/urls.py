from django.urls import path

from .views import (
    accounts,
    audit,
    clubs,
    deletions,
    health,
    live,
    members,
    plays,
    rulings,
    shares,
    stats,
)

urlpatterns = [
    path("", clubs.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("favicon.ico", health.favicon, name="favicon"),
    path("rules/<slug:game>/", rulings.rules, name="rules"),
    path("clubs/new/", clubs.club_create, name="club-create"),
    path("clubs/<int:club_id>/", clubs.club_detail, name="club"),
    path("clubs/<int:club_id>/settings/", clubs.club_settings, name="club-settings"),
    path("clubs/<int:club_id>/players/new/", clubs.player_create, name="player-create"),
    path("clubs/<int:club_id>/nights/new/", clubs.night_create, name="night-create"),
    path("nights/<int:night_id>/", clubs.night_detail, name="night"),
    path("nights/<int:night_id>/edit/", clubs.night_edit, name="night-edit"),
    path("nights/<int:night_id>/plays/new/", plays.play_start, name="play-start"),
    path("nights/<int:night_id>/plays/new/setup/", plays.play_setup, name="play-setup"),
    path("nights/<int:night_id>/upload/", plays.log_upload, name="log-upload"),
    path("plays/<int:play_id>/", plays.play_detail, name="play"),
    path("plays/<int:play_id>/move/", plays.play_move, name="play-move"),
    path("plays/<int:play_id>/undo/", plays.play_undo, name="play-undo"),
    path("plays/<int:play_id>/abandon/", plays.play_abandon, name="play-abandon"),
    path("plays/<int:play_id>/resume/", plays.play_resume, name="play-resume"),
    path("plays/<int:play_id>/sheet/", plays.play_sheet, name="play-sheet"),
    # Live pages: server-sent events, then the fresh fragment
    path("plays/<int:play_id>/events/", live.play_events, name="play-events"),
    path("plays/<int:play_id>/live/", plays.play_live, name="play-live"),
    path("plays/<int:play_id>/table/", plays.play_table, name="play-table"),
    path("nights/<int:night_id>/events/", live.night_events, name="night-events"),
    path("plays/<int:play_id>/log.json", plays.play_download, name="play-download"),
    # Trust: accounts, members and invites, the audit, deletions
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/me/", accounts.account, name="account"),
    path("clubs/<int:club_id>/members/", members.club_members, name="club-members"),
    path("clubs/<int:club_id>/invites/new/", members.invite_create, name="invite-create"),
    path("invites/<int:invite_id>/revoke/", members.invite_revoke, name="invite-revoke"),
    # Tokens are URL-safe base64 (a slug): anything else, such as a NUL, is not looked up.
    path("join/<slug:token>/", members.invite_join, name="invite-join"),
    path("memberships/<int:membership_id>/remove/", members.member_remove, name="member-remove"),
    path("clubs/<int:club_id>/audit/", audit.club_audit, name="club-audit"),
    # Read-only links to a night (no account needed); the token is a slug, as for invites
    path("nights/<int:night_id>/share/", shares.night_share, name="night-share"),
    path("shares/<int:share_id>/revoke/", shares.share_revoke, name="share-revoke"),
    path("shared/<slug:token>/", shares.shared_night, name="shared-night"),
    path("shared/<slug:token>/plays/<int:play_id>/", shares.shared_play, name="shared-play"),
    path("shared/<slug:token>/events/", live.shared_night_events, name="shared-events"),
    path("plays/<int:play_id>/delete/", deletions.play_delete, name="play-delete"),
    path("players/<int:player_id>/delete/", deletions.player_delete, name="player-delete"),
    # History and leaderboards
    path("clubs/<int:club_id>/leaderboard/", stats.leaderboard, name="leaderboard"),
    path(
        "clubs/<int:club_id>/leaderboard/<str:scope>/", stats.leaderboard, name="leaderboard-game"
    ),
    path("clubs/<int:club_id>/export/plays.csv", stats.export_csv, name="export-csv"),
    path("clubs/<int:club_id>/export/logs.zip", stats.export_logs, name="export-logs"),
    path("players/<int:player_id>/", stats.player_detail, name="player"),
    path("nights/<int:night_id>/summary/", stats.night_summary, name="night-summary"),
]
