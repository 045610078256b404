"""The HTTP API's request bodies (pydantic models, shown in the OpenAPI document): their
fields take their own JSON types only, as the live WebSocket's messages do."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from keltis.games import DEFAULT_GAME, GAME_NAMES

if TYPE_CHECKING:
    GameName = str
else:  # the registry's names, one of which a request must give (and the OpenAPI lists)
    GameName = Literal[GAME_NAMES]

#: The longest name of a player or a bot (characters).
MAX_NAME = 40
#: The turn clock's default for a match with two people or more: five minutes a decision.
DEFAULT_TURN_SECONDS = 300
#: The longest turn clock: thirty days a decision.
MAX_TURN_SECONDS = 30 * 24 * 3600


class _Strict(BaseModel):
    """A request body: its fields take their own JSON types only (``"1"`` is no number and
    ``"yes"`` no boolean), as the live WebSocket's messages do; unknown fields are
    ignored."""

    model_config = ConfigDict(strict=True)


class SeatRequest(_Strict):
    """One seat of a new match."""

    kind: Literal["person", "bot"] = "person"
    level: Literal["random", "easy", "medium", "hard"] = Field(
        "medium", description="for a bot seat: how strongly it plays"
    )
    name: str | None = Field(
        None, description=f"a bot's name (default its own; 1-{MAX_NAME} characters)"
    )


class CreateMatch(_Strict):
    """A new match: the game, its seats (2-4, people and bots) and its switches."""

    game: GameName = DEFAULT_GAME
    seats: list[SeatRequest] = Field(min_length=2, max_length=4)
    variant: dict[str, Any] = Field(
        default_factory=dict, description="variant switches (GET /api/games lists them)"
    )
    hints: bool = Field(True, description="players may ask for hints")
    undo: bool = Field(True, description="a player alone against bots may take moves back")
    public: bool = Field(True, description="listed among open and finished matches")
    seed: int | None = Field(
        None,
        ge=0,
        lt=2**63,
        description="the deal: only on a server started with --allow-setup (whoever knows "
        "the seed knows every hand); by default the server deals at random",
    )
    name: str = Field("Player", description=f"the creator's name (1-{MAX_NAME} characters)")
    seat: int | None = Field(
        0, ge=0, le=3, description="the creator's seat (a person seat), or null to only host"
    )
    start: bool = Field(True, description="start at once when no other person is to join")
    turn_seconds: int | None = Field(
        None,
        ge=1,
        le=MAX_TURN_SECONDS,
        description="the turn clock: seconds for each decision, after which the other "
        "players may hand the seat to a bot; null: no limit. Default: "
        f"{DEFAULT_TURN_SECONDS} with two or more person seats, none against bots only",
    )
    setup: dict[str, Any] | None = Field(
        None,
        description="an explicit set-up instead of a seed (the deal chosen by hand, as in a "
        'record\'s setup.explicit; also accepted wrapped as {"explicit": …}); only on a '
        "server started with --allow-setup, for tests and demos",
    )
    tutorial: str | None = Field(
        None,
        max_length=40,
        description="a guided first game by name (GET /api/tutorials lists them): the server "
        "takes its game, seats (the creator in seat 0 against one easy bot), set-up and bot "
        "seeds; only the creator's name is read besides. A 400 tutorial.unknown for a name "
        "it does not know",
    )

    @model_validator(mode="before")
    @classmethod
    def _tutorial_takes_its_seats(cls, data: Any) -> Any:
        """A tutorial takes its own seats, so a request for one may leave ``seats`` out
        (``{"tutorial": "board"}``): whatever seats it gives are replaced anyway."""
        if isinstance(data, dict) and data.get("tutorial") is not None and "seats" not in data:
            return {**data, "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}]}
        return data


class JoinRequest(_Strict):
    """Take a seat with its invite code."""

    invite: str = Field(min_length=1, max_length=100)
    name: str = Field("Player", description=f"the player's name (1-{MAX_NAME} characters)")


class ActionRequest(_Strict):
    """An action, chosen at ``version``: its notation (``G7``) or its dense index."""

    action: str | int
    version: int = Field(ge=0)
