"""Hand-built histories: finished plays written directly, with results as the referee derives
them (winners rank 1, the others by score), then the club's ratings rebuilt."""

import datetime

import pytest


def _ranks(results, teams=None):
    """Winners rank first, the others by score, ties sharing a rank; partners (seats with the
    same team number) count once, as their team."""
    teams = teams or [None] * len(results)
    sides = {}
    for index, ((_, score, won), team) in enumerate(zip(results, teams, strict=True)):
        sides.setdefault(index if team is None else ("team", team), (score, won))
    ranks = []
    for _, score, won in results:
        ranks.append(
            1
            + sum(
                1
                for other_score, other_won in sides.values()
                if (other_won and not won) or (other_won == won and other_score > score)
            )
        )
    return ranks


def random_history(club, night, rng, *, plays: int, minutes: int) -> None:
    """A random history of ``plays`` finished plays, written directly: 1 to 4 of 7 new players
    (P0…P6) a play, ties, partners (some four-seat Punto plays, the first play among them), the
    cooperative 3-High, plays recorded out of order and many ending together (each within
    ``minutes`` of the first), seats stored out of position. Each draws from ``rng`` alone, so
    a seed gives the same history."""
    from games import services
    from games.models import Play, Seat

    people = [services.add_player(club=club, name=f"P{index}") for index in range(7)]
    start = datetime.datetime(2026, 1, 1, 20, tzinfo=datetime.UTC)
    for number in range(plays):
        game = rng.choice(["punto", "thricewise", "three-high", "buntherum"]) if number else "punto"
        seated = rng.sample(people, rng.choice([1, 2, 3, 4, 4]) if number else 4)
        results = [(player, rng.randint(0, 4), False) for player in seated]
        teams = None
        if len(seated) == 4 and game == "punto" and (rng.random() < 0.3 or not number):
            teams = [1, 2, 1, 2]
        ranks = _ranks(results, teams)
        won = [rank == 1 for rank in ranks]
        if game == "three-high":
            won = [rng.random() < 0.5] * len(seated)
        ended = start + datetime.timedelta(minutes=rng.randint(0, minutes))
        play = Play.objects.create(
            club=club, night=night, game=game, status="finished",
            started_at=ended - datetime.timedelta(minutes=rng.choice([5, 10])), ended_at=ended,
        )  # fmt: skip
        order = list(range(len(seated)))
        rng.shuffle(order)
        Seat.objects.bulk_create(
            Seat(
                play=play, position=index, player=seated[index], score=results[index][1],
                is_winner=won[index], rank=ranks[index], team=teams[index] if teams else None,
            )
            for index in order
        )  # fmt: skip


@pytest.fixture
def record(night):
    """``record(game, [(player, score, won), ...], day=1, status="finished", teams=None)`` → the
    play; ``teams`` gives each seat's team number (partners share one and their result)."""
    from games.models import Play, Seat

    counter = iter(range(10_000))

    def record(game, results, *, day=1, status="finished", rebuild=True, teams=None):
        from games import ratings

        at = datetime.datetime(2026, 1, day, 20, 0, tzinfo=datetime.UTC) + datetime.timedelta(
            minutes=next(counter)
        )
        play = Play.objects.create(
            club=night.club,
            night=night,
            game=game,
            status=status,
            started_at=at - datetime.timedelta(minutes=30),
            ended_at=at if status != "in_progress" else None,
        )
        finished = status == "finished"
        Seat.objects.bulk_create(
            Seat(
                play=play,
                position=index,
                player=player,
                score=score,
                is_winner=finished and won,
                rank=rank if finished else None,
                team=team,
            )
            for index, ((player, score, won), rank, team) in enumerate(
                zip(results, _ranks(results, teams), teams or [None] * len(results), strict=True)
            )
        )
        if rebuild:
            ratings.refresh_for_play(play)
        return play

    return record


@pytest.fixture
def four(club, players):
    from games import services

    return [*players, services.add_player(club=club, name="Dev")]
