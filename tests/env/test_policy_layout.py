"""Issue 29, trap 8: a saved policy recorded its format, game, players and sizes only, so a
change of the observation layout that keeps its size loaded silently. Now every layout has a
version (``keltis.env.encode.layout_version``), saved policies carry it, and loading one saved
under another layout (or before layouts had versions) is refused with a clear error; the
policies committed in ``benchmarks/results/`` carry the current version and load."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="pip install 'keltis[rl]'")

from keltis.env.encode import ENCODING_VERSION, layout_version, observation_layout  # noqa: E402
from keltis.env.linear import LinearPolicy  # noqa: E402
from keltis.games import get_game  # noqa: E402

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"


@pytest.fixture
def reordered_cards_layout(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The card game's layout with two table fields of the same size swapped (``piles`` and
    ``pile_tops``, 71 numbers each): the same observation size, other numbers at each place."""
    part = get_game("cards").part("encoding")
    table = list(part.TABLE)
    names = [f.name for f in table]
    i, j = names.index("pile_tops"), names.index("piles")
    assert table[i].size == table[j].size
    table[i], table[j] = table[j], table[i]
    observation_layout.cache_clear()
    monkeypatch.setattr(part, "TABLE", tuple(table))
    yield
    monkeypatch.undo()
    observation_layout.cache_clear()


def test_the_version_follows_the_field_table_and_the_encoding_number() -> None:
    versions = {layout_version(g, n) for g in ("board", "cards") for n in (2, 3, 4)}
    assert len(versions) == 6
    assert all(v.startswith(f"{ENCODING_VERSION}-") for v in versions)
    lay = observation_layout("cards", 2)
    assert lay.version == layout_version("cards", 2)
    renamed = dataclasses.replace(
        lay, table=(dataclasses.replace(lay.table[0], name="stage"), *lay.table[1:])
    )
    assert renamed.size == lay.size
    assert renamed.version != lay.version
    rescaled = dataclasses.replace(
        lay, player=(*lay.player[:-1], dataclasses.replace(lay.player[-1], high=2.0))
    )
    assert rescaled.version != lay.version
    reworded = dataclasses.replace(
        lay, table=(dataclasses.replace(lay.table[0], meaning="another text"), *lay.table[1:])
    )
    assert reworded.version == lay.version  # the meanings' text is documentation


def test_a_linear_policy_of_another_layout_of_the_same_size_is_refused(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    path = tmp_path / "cards.npz"
    policy = LinearPolicy.zeros("cards", 2)
    policy.weights[:, 3] = 1.0
    policy.save(path)
    assert LinearPolicy.load(path).weights[0, 3] == 1.0
    before = layout_version("cards", 2)
    request.getfixturevalue("reordered_cards_layout")
    assert layout_version("cards", 2) != before
    assert observation_layout("cards", 2).size == policy.weights.shape[1]
    with pytest.raises(ValueError, match=f"trained on observation layout {before}.*retrain"):
        LinearPolicy.load(path)


def test_a_linear_policy_saved_without_a_layout_is_refused(tmp_path: Path) -> None:
    """A file of format 1 (before layouts had versions) cannot be checked: refused, saying
    so, rather than loaded on trust."""
    policy = LinearPolicy.zeros("cards", 2)
    path = tmp_path / "old.npz"
    np.savez_compressed(
        path, format=1, game="cards", players=2, weights=policy.weights, bias=policy.bias
    )
    with pytest.raises(ValueError, match="saved without its observation layout's version"):
        LinearPolicy.load(path)


def test_a_ppo_policy_of_another_layout_of_the_same_size_is_refused(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    pytest.importorskip("torch", reason="pip install 'keltis[rl-train]' (or torch==2.13.0)")
    import torch

    from keltis.env.encode import observation_size
    from keltis.env.torch_policy import PolicyNet, load_policy, save_policy

    path = tmp_path / "cards.pt"
    save_policy(path, PolicyNet(observation_size("cards", 2), 500, (8,)), "cards", 2)
    assert load_policy(path).game == "cards"
    data = torch.load(path, weights_only=True)
    del data["layout"]
    data["format"] = 1
    old = tmp_path / "old.pt"
    torch.save(data, old)
    with pytest.raises(ValueError, match="saved without its observation layout's version"):
        load_policy(old)
    before = layout_version("cards", 2)
    request.getfixturevalue("reordered_cards_layout")
    with pytest.raises(ValueError, match=f"trained on observation layout {before}"):
        load_policy(path)


@pytest.mark.parametrize("game", ["cards", "board"])
def test_the_committed_policies_carry_the_current_layout(game: str) -> None:
    linear = LinearPolicy.load(RESULTS / f"learned-{game}.npz")
    assert (linear.game, linear.players) == (game, 2)
    with np.load(RESULTS / f"learned-{game}.npz") as data:
        assert str(data["layout"]) == layout_version(game, 2)
    pytest.importorskip("torch", reason="pip install 'keltis[rl-train]' (or torch==2.13.0)")
    from keltis.env.torch_policy import load_policy

    assert load_policy(RESULTS / f"ppo-{game}.pt").game == game
