from django.urls import path

from .views import clubs, plays

urlpatterns = [
    path("", clubs.home, name="home"),
    path("clubs/new/", clubs.club_create, name="club-create"),
    path("clubs/<int:club_id>/", clubs.club_detail, name="club"),
    path("clubs/<int:club_id>/players/new/", clubs.player_create, name="player-create"),
    path("clubs/<int:club_id>/nights/new/", clubs.night_create, name="night-create"),
    path("nights/<int:night_id>/", clubs.night_detail, name="night"),
    path("plays/<int:play_id>/", plays.play_detail, name="play"),
]
