"""Entering a result on the night's page: the game, then the players and their scores, places
or the table's win; refused results said in words (422) with nothing saved."""

import pytest
from django.urls import reverse

from games import services
from games.models import CatalogueGame, Play, Seat


@pytest.fixture
def azul(club):
    return services.add_catalogue_game(club=club, name="Azul", result="highest")


@pytest.fixture
def podium(club):
    return services.add_catalogue_game(club=club, name="Podium", result="ranks")


@pytest.fixture
def hanabi(club):
    return services.add_catalogue_game(club=club, name="Hanabi", result="cooperative", scored=True)


def _seats(play):
    return [
        (s.player.name, s.shown_score, s.rank, s.is_winner)
        for s in Seat.objects.filter(play=play).select_related("player").order_by("position")
    ]


def test_the_night_page_offers_a_result_and_the_catalogue_lists_its_games(
    member_client, night, azul
):
    page = member_client.get(reverse("night", args=[night.pk]))
    assert reverse("result-game", args=[night.pk]) in page.text
    page = member_client.get(reverse("result-game", args=[night.pk]))
    assert reverse("result-new", args=[night.pk, azul.key]) in page.text


def test_a_new_game_typed_at_the_table_joins_the_catalogue(member_client, night):
    answer = member_client.post(
        reverse("result-game", args=[night.pk]),
        {"name": "Hanabi", "result": "cooperative", "min_players": "2", "max_players": "5",
         "bgg_id": "98778"},
    )  # fmt: skip
    game = CatalogueGame.objects.get(name="Hanabi")
    assert answer.status_code == 302
    assert answer.url == reverse("result-new", args=[night.pk, game.key])
    assert game.cooperative and not game.scored
    assert (game.min_players, game.max_players, game.bgg_id) == (2, 5, 98778)


def test_a_game_badly_described_is_refused_in_words(member_client, night):
    answer = member_client.post(
        reverse("result-game", args=[night.pk]),
        {"name": " ", "min_players": "1", "max_players": "30"},
    )
    assert answer.status_code == 422 and "needs a name" in answer.text
    answer = member_client.post(
        reverse("result-game", args=[night.pk]),
        {"name": "Azul", "min_players": "two", "max_players": "30"},
    )
    assert answer.status_code == 422 and "whole numbers" in answer.text
    assert not CatalogueGame.objects.exists()


def test_scores_typed_as_sums(member_client, night, players, azul):
    ana, ben, chloe = players
    answer = member_client.post(
        reverse("result-new", args=[night.pk, azul.key]),
        {
            "player": [ana.pk, ben.pk],
            f"score-{ana.pk}": "6+10-3",
            f"score-{ben.pk}": "12,5",
            f"score-{chloe.pk}": "99",  # not tapped: not seated
            "started": "21:15",
            "duration": "1:05",
        },
    )
    play = Play.objects.get()
    assert answer.status_code == 302 and answer.url == reverse("play", args=[play.pk])
    assert _seats(play) == [("Ana", "13", 1, True), ("Ben", "12.5", 2, False)]
    assert play.duration_minutes == 65
    assert play.started_at.astimezone(night.club.zone).strftime("%H:%M") == "21:15"
    page = member_client.get(answer.url)
    assert (
        "Entered as a result" in page.text
        and "1 h 05" in member_client.get(reverse("night", args=[night.pk])).text
    )


def test_places_tapped_in_finishing_order(member_client, night, players, podium):
    ana, ben, chloe = players
    member_client.post(
        reverse("result-new", args=[night.pk, podium.key]),
        {"player": [chloe.pk, ana.pk, ben.pk]},
    )
    play = Play.objects.get()
    assert _seats(play) == [("Chloé", "", 1, True), ("Ana", "", 2, False), ("Ben", "", 3, False)]


def test_places_with_a_tie(member_client, night, players, podium):
    ana, ben, chloe = players
    member_client.post(
        reverse("result-new", args=[night.pk, podium.key]),
        {
            "player": [ana.pk, ben.pk, chloe.pk],
            f"place-{ana.pk}": "1",
            f"place-{ben.pk}": "1",
            f"place-{chloe.pk}": "3",
        },
    )
    assert [r[2:] for r in _seats(Play.objects.get())] == [(1, True), (1, True), (3, False)]


@pytest.mark.parametrize(("won", "winner"), [("1", True), ("0", False)])
def test_a_cooperative_game_is_won_or_lost_by_the_table(
    member_client, night, players, hanabi, won, winner
):
    member_client.post(
        reverse("result-new", args=[night.pk, hanabi.key]),
        {"player": [p.pk for p in players], "table-score": "20+3", "won": won},
    )
    play = Play.objects.get()
    assert {r[1:] for r in _seats(play)} == {("23", 1, winner)}
    page = member_client.get(reverse("play", args=[play.pk]))
    assert ("The table won." if winner else "The table lost.") in page.text


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (lambda a, b: {"player": [a.pk, b.pk], f"score-{a.pk}": "3"}, "needs a score"),
        (lambda a, b: {"player": [a.pk], f"score-{a.pk}": "2*3"}, "is not a score"),
        (lambda a, b: {"player": ["x"]}, "among the club"),
        (lambda a, b: {}, "Tap the players"),
        (lambda a, b: {"player": [a.pk], f"score-{a.pk}": "1", "duration": "soon"}, "duration"),
        (lambda a, b: {"player": [a.pk], f"score-{a.pk}": "1", "started": "25:99"}, "20:30"),
    ],
)
def test_a_bad_result_is_refused_in_words_and_nothing_is_saved(
    member_client, night, players, azul, fields, message
):
    answer = member_client.post(
        reverse("result-new", args=[night.pk, azul.key]), fields(players[0], players[1])
    )
    assert answer.status_code == 422 and message in answer.text
    assert not Play.objects.exists()


def test_another_clubs_game_or_a_refereed_one_is_no_result_page(member_client, night, owner):
    other = services.create_club(name="Other", owner=owner)
    theirs = services.add_catalogue_game(club=other, name="Azul")
    for game in (theirs.key, "punto", "game-0", "game-" + "9" * 30):
        assert member_client.get(reverse("result-new", args=[night.pk, game])).status_code == 404


def test_an_outsider_sees_nothing(outsider_client, night, azul):
    assert outsider_client.get(reverse("result-game", args=[night.pk])).status_code == 404
    url = reverse("result-new", args=[night.pk, azul.key])
    assert outsider_client.get(url).status_code == 404


def test_a_result_play_refuses_moves_and_sheets_in_words(member_client, night, players, azul):
    play = services.enter_result(
        night=night, game=azul.key, seats=[services.SeatResult(players[0], 3)]
    )
    answer = member_client.post(reverse("play-move", args=[play.pk]), {"move": "{}"})
    assert 400 <= answer.status_code < 500 or answer.status_code == 302
    assert member_client.post(reverse("play-undo", args=[play.pk])).status_code < 500
    assert member_client.get(reverse("play-sheet", args=[play.pk])).status_code == 302
    assert member_client.get(reverse("play-table", args=[play.pk])).status_code == 200
    assert member_client.get(reverse("play-download", args=[play.pk])).status_code == 404


def test_a_result_play_through_the_read_only_link_and_the_summary(
    owner_client, client, night, players, azul, owner
):
    play = services.enter_result(
        night=night, game=azul.key, seats=[services.SeatResult(players[0], 3),
                                           services.SeatResult(players[1], 5)],
    )  # fmt: skip
    share = services.share_night(night=night, by=owner)
    page = client.get(reverse("shared-night", args=[share.token]))
    assert page.status_code == 200 and "Azul" in page.text
    page = client.get(reverse("shared-play", args=[share.token, play.pk]))
    assert page.status_code == 200 and "Entered as a result" in page.text
    assert reverse("player", args=[players[0].pk]) not in page.text  # nothing else of the club
    summary = owner_client.get(reverse("night-summary", args=[night.pk]))
    assert summary.status_code == 200 and "Ben" in summary.text


def test_a_result_play_is_deleted_with_its_results_in_the_audit(owner_client, night, players, azul):
    from games.models import AuditEntry, RatingChange

    play = services.enter_result(
        night=night, game=azul.key, seats=[services.SeatResult(players[0], 3),
                                           services.SeatResult(players[1], 5)],
    )  # fmt: skip
    page = owner_client.get(reverse("play-delete", args=[play.pk]))
    assert page.status_code == 200
    version = page.context["play"].version
    answer = owner_client.post(reverse("play-delete", args=[play.pk]), {"version": version})
    assert answer.status_code == 302 and not Play.objects.exists()
    assert not RatingChange.objects.exists()
    entry = AuditEntry.objects.get(action=AuditEntry.Action.PLAY_DELETE)
    assert entry.data["log"] is None and entry.data["results"][1]["score"] == "5"


def test_a_duration_is_corrected_and_ratings_follow_a_result_plays_end(
    member_client, night, players, azul
):
    from games.models import RatingChange

    play = services.enter_result(
        night=night, game=azul.key, seats=[services.SeatResult(players[0], 3)],
        duration_minutes=20,
    )  # fmt: skip
    answer = member_client.post(
        reverse("play-duration", args=[play.pk]), {"duration": "1:10", "back": "night"}
    )
    assert answer.url == reverse("night", args=[night.pk])
    play.refresh_from_db()
    assert play.duration_minutes == 70
    assert play.ended_at - play.started_at == __import__("datetime").timedelta(minutes=70)
    assert set(RatingChange.objects.filter(play=play).values_list("played_at", flat=True)) == {
        play.ended_at
    }
    answer = member_client.post(reverse("play-duration", args=[play.pk]), {"duration": "soon"})
    play.refresh_from_db()
    assert play.duration_minutes == 70
    assert "duration" in member_client.get(answer.url).text


def test_a_refereed_plays_duration_corrected_then_given_back(member_client, night, players):
    import json
    from pathlib import Path

    log = json.loads(
        (Path(__file__).parent.parent / "fixtures" / "examples" / "punto-1.json").read_text()
    )
    play = services.import_log(club=night.club, log=log, night=night)
    member_client.post(reverse("play-duration", args=[play.pk]), {"duration": "35"})
    assert Play.objects.with_durations().get(pk=play.pk).duration == 35
    assert "35 min" in member_client.get(reverse("night", args=[night.pk])).text
    member_client.post(reverse("play-duration", args=[play.pk]), {"duration": ""})
    assert Play.objects.with_durations().get(pk=play.pk).duration is None  # moves entered at once


def test_scores_and_places_bring_up_a_number_pad(member_client, night, players, azul, podium):
    """A score's field brings up the phone's number pad with "+" on it (inputmode "tel": a sum
    is typed as on paper); a place's and a team's the digits alone."""
    from tests.dom import attr, dom, find_all

    page = dom(member_client.get(reverse("result-new", args=[night.pk, azul.key])))
    scores = find_all(page, "input", class_="score")
    assert len(scores) == len(players)
    assert {attr(field, "inputmode") for field in scores} == {"tel"}
    page = dom(member_client.get(reverse("result-new", args=[night.pk, podium.key])))
    places = find_all(page, "input", class_="place")
    assert len(places) == len(players) and not find_all(page, "input", class_="score")
    assert {attr(field, "inputmode") for field in places} == {"numeric"}


@pytest.fixture
def four(club, players):
    return [*players, services.add_player(club=club, name="Dev")]


def test_teams_entered_at_the_table_share_their_result(member_client, night, four):
    """A team game: each player's team number typed; one score typed for a team is its
    partners' too; places tapped per team; partners who differ are refused in words."""
    ana, ben, chloe, dev = four
    game = services.add_catalogue_game(club=night.club, name="Crew", result="highest", teams=True)
    url = reverse("result-new", args=[night.pk, game.key])
    teams = {f"team-{ana.pk}": "1", f"team-{chloe.pk}": "1", f"team-{ben.pk}": "2",
             f"team-{dev.pk}": "2"}  # fmt: skip
    answer = member_client.post(
        url,
        {"player": [ana.pk, ben.pk, chloe.pk, dev.pk], **teams,
         f"score-{ana.pk}": "30", f"score-{ben.pk}": "20+5", f"score-{dev.pk}": "25"},
    )  # fmt: skip
    assert answer.status_code == 302
    play = Play.objects.get()
    assert [(*seat, s.team) for seat, s in zip(_seats(play), play.seats.order_by("position"),
                                               strict=True)] == [
        ("Ana", "30", 1, True, 1), ("Ben", "25", 2, False, 2),
        ("Chloé", "30", 1, True, 1), ("Dev", "25", 2, False, 2),
    ]  # fmt: skip
    answer = member_client.post(
        url,
        {"player": [ana.pk, ben.pk, chloe.pk, dev.pk], **teams, f"score-{ana.pk}": "30",
         f"score-{chloe.pk}": "31", f"score-{ben.pk}": "20", f"score-{dev.pk}": "20"},
    )  # fmt: skip
    assert answer.status_code == 422 and "Partners share their result" in answer.text
    assert Play.objects.count() == 1


def test_a_plays_page_says_how_it_was_recorded_and_the_player_page_its_time(
    member_client, night, players, azul
):
    """A refereed play's page says it was refereed move by move, a result play's that it was
    entered as a result; the player page adds up the time of both."""
    import json
    from pathlib import Path

    from tests.dom import dom, find, text

    log = json.loads(
        (Path(__file__).parent.parent / "fixtures" / "examples" / "punto-1.json").read_text()
    )
    refereed = services.import_log(club=night.club, log=log, night=night)
    services.set_duration(play=refereed, minutes=35)
    result = services.enter_result(
        night=night, game=azul.key, seats=[services.SeatResult(players[0], 3)],
        duration_minutes=50,
    )  # fmt: skip
    said = text(
        find(dom(member_client.get(reverse("play", args=[refereed.pk]))), "p", id="play-kind")
    )
    assert said.startswith("Refereed move by move")
    said = text(
        find(dom(member_client.get(reverse("play", args=[result.pk]))), "p", id="play-kind")
    )
    assert said.startswith("Entered as a result")
    page = dom(member_client.get(reverse("player", args=[players[0].pk])))
    assert "1:25" in text(find(page, "table", id="by-year"))  # 35 + 50 minutes
