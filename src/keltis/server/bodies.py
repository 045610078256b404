"""The HTTP API's request bodies (pydantic models, shown in the OpenAPI document): their
fields take their own JSON types only, as the live WebSocket's messages do."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema, model_validator

from keltis.catalogs import LANGUAGES
from keltis.games import DEFAULT_GAME, GAME_NAMES
from keltis.server.textcheck import IdCheck, NameCheck, schema

if TYPE_CHECKING:
    GameName = str
    Language = str
else:  # the registry's names, one of which a request must give (and the OpenAPI lists)
    GameName = Literal[GAME_NAMES]
    Language = Literal[tuple(LANGUAGES)]

#: The longest name of a player or a bot (characters).
MAX_NAME = 40
#: The longest account name a request may give (log-in, mutes, a player's page: real
#: account names have 3-20 characters, a bot level's page is ``bot:<level>``).
MAX_ACCOUNT_NAME = 64
#: The longest id, token, invite or code a request may give (the server's own are far
#: shorter).
MAX_ID = 128

# Every name and id a request gives, in its body or its address, is one of these: checked
# by keltis.server.textcheck before anything is looked up (400 server.bad_name or
# server.bad_request), never a query with a NUL or a right-to-left override in it.

#: A player's or a bot's name in a match: 1-40 characters, not only spaces, no control,
#: formatting or separator character, and not a deleted account's ``(deleted)``.
PlayerName = Annotated[
    str, AfterValidator(NameCheck(MAX_NAME, player=True)), WithJsonSchema(schema(MAX_NAME))
]
#: An account's name as a request gives it (it may name no account: that is for the route
#: to say).
AccountName = Annotated[
    str, AfterValidator(NameCheck(MAX_ACCOUNT_NAME)), WithJsonSchema(schema(MAX_ACCOUNT_NAME))
]
#: An id (a match's, a seek's, an account's), a token or a code (a language, a guided first
#: game) in a request's address: 1-128 characters, no control, formatting or separator
#: character.
IdText = Annotated[str, AfterValidator(IdCheck(MAX_ID)), WithJsonSchema(schema(MAX_ID))]
#: A match's id in a request's body: 1-32 characters (as the server makes them), checked
#: as :data:`IdText`.
MatchIdText = Annotated[str, AfterValidator(IdCheck(32)), WithJsonSchema(schema(32))]
#: A seat's token or an invite code in a request's body: 1-100 characters, checked as
#: :data:`IdText`.
SecretText = Annotated[str, AfterValidator(IdCheck(100)), WithJsonSchema(schema(100))]
#: A guided first game's name in a request's body: 1-40 characters, checked as
#: :data:`IdText`.
LessonName = Annotated[str, AfterValidator(IdCheck(40)), WithJsonSchema(schema(40))]
#: The turn clock's default for a match with two people or more: five minutes a decision.
DEFAULT_TURN_SECONDS = 300
#: The longest turn clock: thirty days a decision.
MAX_TURN_SECONDS = 30 * 24 * 3600
#: A real-time time control's seconds for each decision, and the most a seat's bank holds.
MIN_DECISION, MAX_DECISION, MAX_BANK = 5, 600, 3600
#: A correspondence time control's most days for each decision.
MAX_DAYS = 3


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
    name: PlayerName | None = Field(
        None, description=f"a bot's name (default its own; 1-{MAX_NAME} characters)"
    )


class RealtimeControl(_Strict):
    """A real-time time control: seconds for each decision, and a bank per seat that pays
    for decisions taking longer."""

    kind: Literal["realtime"]
    decision: int = Field(ge=MIN_DECISION, le=MAX_DECISION, description="seconds for each decision")
    bank: int = Field(
        0,
        ge=0,
        le=MAX_BANK,
        description="seconds per seat, spent on decisions that take longer (default 0)",
    )


class CorrespondenceControl(_Strict):
    """A correspondence time control: days for each decision (an e-mail tells a player with
    an account when a decision is theirs)."""

    kind: Literal["correspondence"]
    days: int = Field(ge=1, le=MAX_DAYS, description="days for each decision")


#: A match's (or a seek's) time control, ``{"kind": "realtime", "decision", "bank"}`` or
#: ``{"kind": "correspondence", "days"}``: when a seat's time is spent, a bot plays it on
#: (docs/server.md, "Time controls"; :mod:`keltis.server.clocks`).
TimeControl = Annotated[RealtimeControl | CorrespondenceControl, Field(discriminator="kind")]


class CreateMatch(_Strict):
    """A new match: the game, its seats (2-4, people and bots) and its switches."""

    game: GameName = DEFAULT_GAME
    seats: list[SeatRequest] = Field(min_length=2, max_length=4)
    variant: dict[str, Any] = Field(
        default_factory=dict, description="variant switches (GET /api/games lists them)"
    )
    hints: bool = Field(
        True,
        description="players may ask for hints: always where every other seat is a bot; "
        "between people only when sent as true explicitly (whoever joins agrees; such a "
        "match is never rated)",
    )
    undo: bool = Field(True, description="a player alone against bots may take moves back")
    public: bool = Field(True, description="listed among open and finished matches")
    seed: int | None = Field(
        None,
        ge=0,
        lt=2**63,
        description="the deal: only on a server started with --allow-setup (whoever knows "
        "the seed knows every hand); by default the server deals at random",
    )
    name: PlayerName = Field("Player", description=f"the creator's name (1-{MAX_NAME} characters)")
    seat: int | None = Field(
        0, ge=0, le=3, description="the creator's seat (a person seat), or null to only host"
    )
    start: bool = Field(True, description="start at once when no other person is to join")
    rated: bool = Field(
        False,
        description="a rated match (the creator logged in; every seat an account or a bot: "
        "invited seats can only be taken by logged-in accounts)",
    )
    turn_seconds: int | None = Field(
        None,
        ge=1,
        le=MAX_TURN_SECONDS,
        description="the turn clock: seconds for each decision, after which the other "
        "players may hand the seat to a bot; null: no limit. Default: "
        f"{DEFAULT_TURN_SECONDS} with two or more person seats, none against bots only",
    )
    time: TimeControl | None = Field(
        None,
        description="a time control instead of the turn clock: when a seat's decision time "
        "and bank are spent, a bot plays it on to the end (in a rated match it ranks last)",
    )
    setup: dict[str, Any] | None = Field(
        None,
        description="an explicit set-up instead of a seed (the deal chosen by hand, as in a "
        'record\'s setup.explicit; also accepted wrapped as {"explicit": …}); only on a '
        "server started with --allow-setup, for tests and demos",
    )
    tutorial: LessonName | None = Field(
        None,
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

    invite: SecretText
    name: PlayerName = Field("Player", description=f"the player's name (1-{MAX_NAME} characters)")


class ActionRequest(_Strict):
    """An action, chosen at ``version``: its notation (``G7``) or its action id in its game."""

    action: str | int
    version: int = Field(ge=0)


# -- accounts (docs/server.md, "Accounts and sessions") ------------------------------------

#: What an e-mail address must look like (its owner proves the rest by reading the mail).
EMAIL_PATTERN = r"^[^@\s\x00-\x1f\x7f]{1,64}@[^@\s\x00-\x1f\x7f]{1,189}\.[^@\s\x00-\x1f\x7f]{1,63}$"


class SeatClaim(_Strict):
    """A seat this browser holds as a guest: the match and the seat's token."""

    match: MatchIdText
    token: SecretText


class NewAccount(_Strict):
    """A new account."""

    name: AccountName = Field(description="3-20 letters, digits, _ or -; unique")
    password: str = Field(min_length=1, max_length=1000, description="8-200 characters")
    language: Language = "en"
    email: str | None = Field(
        None, max_length=254, pattern=EMAIL_PATTERN, description="for turn e-mails, optional"
    )
    seats: list[SeatClaim] = Field(
        default_factory=list,
        max_length=200,
        description="guest seats this browser holds, which the account keeps",
    )
    time_zone: str | None = Field(
        None,
        max_length=64,
        description="the IANA time zone e-mails write times in (the browser's); default UTC",
    )


class LogIn(_Strict):
    """Log in with a name and a password."""

    name: AccountName
    password: str = Field(min_length=1, max_length=1000)


class AccountChange(_Strict):
    """Settings of one's account (the fields given are changed)."""

    language: Language | None = None
    email: str | None = Field(None, max_length=254, pattern=EMAIL_PATTERN)
    email_turns: bool | None = None
    time_zone: str | None = Field(
        None,
        max_length=64,
        description="the IANA time zone e-mails write times in (Europe/Prague); null: UTC",
    )


class PasswordChange(_Strict):
    """A new password, the old one confirming it."""

    old: str = Field(min_length=1, max_length=1000)
    new: str = Field(min_length=1, max_length=1000)


class PasswordCheck(_Strict):
    """The account's password, confirming what is asked (deleting the account)."""

    password: str = Field(min_length=1, max_length=1000)


class ResetRequest(_Strict):
    """Ask for a link to set a new password: the account's name or its e-mail address (one
    of them)."""

    name: AccountName | None = Field(None, description="the account's name")
    email: str | None = Field(
        None, max_length=254, pattern=EMAIL_PATTERN, description="or the account's address"
    )

    @model_validator(mode="after")
    def _one_of_them(self) -> ResetRequest:
        """A name or an address, not both and not neither."""
        if (self.name is None) == (self.email is None):
            raise ValueError("give either name or email")
        return self


class NewPassword(_Strict):
    """The new password a password reset's link sets."""

    password: str = Field(min_length=1, max_length=1000, description="8-200 characters")


class SeatClaims(_Strict):
    """Guest seats the account takes over."""

    seats: list[SeatClaim] = Field(max_length=200)


class MuteRequest(_Strict):
    """An account whose chat is not to be shown."""

    name: AccountName


# -- chat (docs/server.md, "Chat") ---------------------------------------------------------


class ChatRequest(_Strict):
    """A chat message: 1-300 characters once trimmed, on one line, no control, formatting or
    separator character (the limits are checked by :func:`keltis.server.chat.checked_text`,
    with their own refusals)."""

    text: str = Field(description="1-300 characters of plain text")


# -- the lobby's seeks (docs/server.md, "The lobby: seeks") --------------------------------

#: The shortest and longest wait for people before bots take a seek's empty places (s).
MIN_BOTS_AFTER, MAX_BOTS_AFTER = 10, 86400
#: The widest rating a seek's range may name (ratings start at 1500 and stay far within).
MAX_RATING = 10000.0


class OpenSeek(_Strict):
    """A seek for a match: the game, how many players, rated or not, its time control, whose
    rating may join, and whether bots take the places still empty after a wait."""

    game: GameName = DEFAULT_GAME
    players: int = Field(ge=2, le=4, description="seats of the match, the seeker's included")
    rated: bool = Field(False, description="a rated match (every seat an account or a bot)")
    time: TimeControl | None = Field(
        None, description="the match's time control (default: the turn clock's default)"
    )
    rating_min: float | None = Field(
        None,
        ge=-MAX_RATING,
        le=MAX_RATING,
        description="the lowest rating in this game that may join (null: no limit)",
    )
    rating_max: float | None = Field(
        None,
        ge=-MAX_RATING,
        le=MAX_RATING,
        description="the highest rating in this game that may join (null: no limit)",
    )
    bots_after: int | None = Field(
        None,
        ge=MIN_BOTS_AFTER,
        le=MAX_BOTS_AFTER,
        description="seconds after which bots of the server's --stand-in level take the "
        "places still empty and the match starts (null: wait for people)",
    )

    @model_validator(mode="after")
    def _range_in_order(self) -> OpenSeek:
        """A range whose lowest rating is above its highest admits nobody: refused."""
        if (
            self.rating_min is not None
            and self.rating_max is not None
            and self.rating_min > self.rating_max
        ):
            raise ValueError("rating_min is above rating_max")
        return self
