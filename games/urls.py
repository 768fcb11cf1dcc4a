from django.urls import path, register_converter

from .converters import IdConverter
from .views import (
    accounts,
    audit,
    bgstats,
    clubs,
    corrections,
    deletions,
    health,
    live,
    logs,
    members,
    play_live,
    play_page,
    play_start,
    results,
    rulings,
    shares,
    sheets,
    stats,
)

# Every id in an address is one a row can have: a bigger number is a 404 (games/converters.py).
register_converter(IdConverter, "id")

urlpatterns = [
    path("", clubs.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("favicon.ico", health.favicon, name="favicon"),
    path("rules/<slug:game>/", rulings.rules, name="rules"),
    path("clubs/new/", clubs.club_create, name="club-create"),
    path("clubs/<id:club_id>/", clubs.club_detail, name="club"),
    path("clubs/<id:club_id>/settings/", clubs.club_settings, name="club-settings"),
    path("clubs/<id:club_id>/players/new/", clubs.player_create, name="player-create"),
    path("clubs/<id:club_id>/nights/new/", clubs.night_create, name="night-create"),
    path("nights/<id:night_id>/", clubs.night_detail, name="night"),
    path("nights/<id:night_id>/edit/", clubs.night_edit, name="night-edit"),
    path("nights/<id:night_id>/plays/new/", play_start.play_start, name="play-start"),
    path("nights/<id:night_id>/plays/new/setup/", play_start.play_setup, name="play-setup"),
    path("nights/<id:night_id>/upload/", logs.log_upload, name="log-upload"),
    path("nights/<id:night_id>/results/new/", results.result_game, name="result-game"),
    path("nights/<id:night_id>/results/new/<slug:game>/", results.result_new, name="result-new"),
    path("plays/<id:play_id>/", play_page.play_detail, name="play"),
    path("plays/<id:play_id>/move/", play_page.play_move, name="play-move"),
    path("plays/<id:play_id>/undo/", play_page.play_undo, name="play-undo"),
    path(
        "plays/<id:play_id>/moves/<int:index>/correct/",
        corrections.play_correct,
        name="play-correct",
    ),
    path("plays/<id:play_id>/abandon/", play_page.play_abandon, name="play-abandon"),
    path("plays/<id:play_id>/resume/", play_page.play_resume, name="play-resume"),
    path("plays/<id:play_id>/sheet/", sheets.play_sheet, name="play-sheet"),
    path("plays/<id:play_id>/duration/", results.play_duration, name="play-duration"),
    # Live pages: server-sent events, then the fresh fragment
    path("plays/<id:play_id>/events/", live.play_events, name="play-events"),
    path("plays/<id:play_id>/live/", play_live.play_live, name="play-live"),
    path("plays/<id:play_id>/table/", sheets.play_table, name="play-table"),
    path("nights/<id:night_id>/events/", live.night_events, name="night-events"),
    path("plays/<id:play_id>/log.json", logs.play_download, name="play-download"),
    # Trust: accounts, members and invites, the audit, deletions
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/me/", accounts.account, name="account"),
    path("clubs/<id:club_id>/members/", members.club_members, name="club-members"),
    path("clubs/<id:club_id>/invites/new/", members.invite_create, name="invite-create"),
    path("invites/<id:invite_id>/revoke/", members.invite_revoke, name="invite-revoke"),
    # Tokens are URL-safe base64 (a slug): anything else, such as a NUL, is not looked up.
    path("join/<slug:token>/", members.invite_join, name="invite-join"),
    path("memberships/<id:membership_id>/remove/", members.member_remove, name="member-remove"),
    path("clubs/<id:club_id>/audit/", audit.club_audit, name="club-audit"),
    # Read-only links to a night (no account needed); the token is a slug, as for invites
    path("nights/<id:night_id>/share/", shares.night_share, name="night-share"),
    path("shares/<id:share_id>/revoke/", shares.share_revoke, name="share-revoke"),
    path("shared/<slug:token>/", shares.shared_night, name="shared-night"),
    path("shared/<slug:token>/plays/<id:play_id>/", shares.shared_play, name="shared-play"),
    path("shared/<slug:token>/events/", live.shared_night_events, name="shared-events"),
    path("plays/<id:play_id>/delete/", deletions.play_delete, name="play-delete"),
    path("players/<id:player_id>/delete/", deletions.player_delete, name="player-delete"),
    # History and leaderboards
    path("clubs/<id:club_id>/leaderboard/", stats.leaderboard, name="leaderboard"),
    path("clubs/<id:club_id>/leaderboard/<str:scope>/", stats.leaderboard, name="leaderboard-game"),
    path("clubs/<id:club_id>/export/plays.csv", stats.export_csv, name="export-csv"),
    # BG Stats, both ways
    path("clubs/<id:club_id>/bgstats/upload/", bgstats.bgstats_upload, name="bgstats-upload"),
    path("clubs/<id:club_id>/bgstats/import/", bgstats.bgstats_confirm, name="bgstats-confirm"),
    path(
        "clubs/<id:club_id>/export/BGStatsExport.json",
        bgstats.bgstats_download,
        name="bgstats-download",
    ),
    path(
        "nights/<id:night_id>/BGStatsExport.json",
        bgstats.night_bgstats_download,
        name="night-bgstats-download",
    ),
    path("clubs/<id:club_id>/export/logs.zip", stats.export_logs, name="export-logs"),
    path("players/<id:player_id>/", stats.player_detail, name="player"),
    path("nights/<id:night_id>/summary/", stats.night_summary, name="night-summary"),
]
