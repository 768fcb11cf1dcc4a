from django.urls import path

from .views import clubs, plays

urlpatterns = [
    path("", clubs.home, name="home"),
    path("clubs/new/", clubs.club_create, name="club-create"),
    path("clubs/<int:club_id>/", clubs.club_detail, name="club"),
    path("clubs/<int:club_id>/players/new/", clubs.player_create, name="player-create"),
    path("clubs/<int:club_id>/nights/new/", clubs.night_create, name="night-create"),
    path("nights/<int:night_id>/", clubs.night_detail, name="night"),
    path("nights/<int:night_id>/plays/new/", plays.play_start, name="play-start"),
    path("nights/<int:night_id>/plays/new/setup/", plays.play_setup, name="play-setup"),
    path("nights/<int:night_id>/upload/", plays.log_upload, name="log-upload"),
    path("plays/<int:play_id>/", plays.play_detail, name="play"),
    path("plays/<int:play_id>/move/", plays.play_move, name="play-move"),
    path("plays/<int:play_id>/undo/", plays.play_undo, name="play-undo"),
    path("plays/<int:play_id>/abandon/", plays.play_abandon, name="play-abandon"),
    path("plays/<int:play_id>/sheet/", plays.play_sheet, name="play-sheet"),
    path("plays/<int:play_id>/log.json", plays.play_download, name="play-download"),
]
