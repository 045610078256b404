"""keltis.fast.tune and keltis.fast.tuning.duel: the heuristic's weights judged and searched in
the kernel (issue 44)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba", reason="keltis.fast needs numba: pip install 'keltis[fast]'")
pytest.importorskip("cma", reason="keltis.fast.tune needs cma: pip install 'keltis[tune]'")

from keltis.bots.weights import read_weights, weights_of
from keltis.fast import tune
from keltis.fast.tuning import default_tuning, duel, from_array, tuning_array


@pytest.mark.parametrize("game", ["board", "cards"])
@pytest.mark.parametrize("players", [2, 4])
def test_a_duel_of_todays_weights_with_themselves_is_even_deal_by_deal(
    game: str, players: int
) -> None:
    """Each deal is played once with the hero in every seat: with the same weights everywhere
    those games are the same game, so the hero's shares add up to exactly one victory."""
    shares = duel(game, players, default_tuning(game), 11, range(30))
    assert shares.shape == (30,)
    assert np.allclose(shares, 1 / players)


@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_duel_tells_worse_weights_apart(game: str) -> None:
    worse = tuning_array(default_tuning(game))
    worse[0] *= 0.3  # expects far fewer draws from the pile than come: plays as if time ran out
    shares = duel(game, 2, worse, 5, range(60))
    assert shares.mean() < 0.4
    # the field can be given too: today's weights against the worse ones win as much
    flipped = duel(game, 2, default_tuning(game), 5, range(60), field=worse)
    assert np.allclose(flipped, 1 - shares)
    with pytest.raises(ValueError, match="weights, not"):
        duel(game, 2, worse[:3], 5, range(2))


def test_weights_as_arrays_and_back() -> None:
    tuning = from_array("cards", tuning_array(default_tuning("cards")) * 2)
    assert weights_of(tuning) == {k: 2 * v for k, v in weights_of(default_tuning("cards")).items()}
    with pytest.raises(ValueError, match="13 weights"):
        from_array("cards", [1.0, 2.0])


def _settings(generations: int) -> tune.Settings:
    return tune.Settings(
        game="cards", players=2, generations=generations, deals=6, popsize=4, sigma=0.3,
        check_every=2, check_deals=8, seed=3,
    )  # fmt: skip


def test_a_tuning_run_goes_on_where_it_stopped_as_if_never_stopped(tmp_path: Path) -> None:
    straight = tune.run(_settings(3), tmp_path / "straight", out=io.StringIO())
    out = io.StringIO()
    tune.run(_settings(2), tmp_path / "resumed", out=out)
    assert "generation 2/2" in out.getvalue()
    resumed = tune.run(_settings(3), tmp_path / "resumed", out=io.StringIO())
    assert resumed == straight
    log = [json.loads(line) for line in (tmp_path / "resumed" / "log.jsonl").open()]
    assert [line["generation"] for line in log] == [0, 1, 2]
    assert [line["deals"] for line in log] == [[0, 6], [6, 12], [12, 18]]
    assert "check_share" in log[1]
    assert "check_share" not in log[0]
    straight_log = [json.loads(line) for line in (tmp_path / "straight" / "log.jsonl").open()]
    for one in (*log, *straight_log):
        del one["cpu_seconds"]
    assert log == straight_log
    # what it found is a weights file the bots play
    game, tuning = read_weights(str(tmp_path / "resumed" / "tuned.json"))
    assert game == "cards"
    assert weights_of(tuning) == pytest.approx(resumed["weights"])
    with pytest.raises(ValueError, match="other settings"):
        tune.run(
            tune.Settings(**{**vars(_settings(4)), "deals": 7}),
            tmp_path / "resumed",
            out=io.StringIO(),
        )


def test_the_command_line_refuses_bad_settings(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in [
        (["--game", "cards", "--players", "5", "--out", "x"], "2-4 players"),
        (["--game", "cards", "--deals", "0", "--out", "x"], "--deals must be at least 1"),
        (["--game", "cards", "--sigma", "0", "--out", "x"], "--sigma above 0"),
    ]:
        with pytest.raises(SystemExit):
            tune.main(argv)
        assert message in capsys.readouterr().err
