"""The documentation stands on its own: every relative link in README.md and docs/ leads to a
file of this repository (and to a heading there, for links with ``#``), and no page sends the
reader to a path outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def _prose(page: Path) -> str:
    """The page without its code blocks (a link-like text in code is code)."""
    return FENCE.sub("", page.read_text(encoding="utf-8"))


def _anchors(page: Path) -> set[str]:
    """GitHub's anchors of the page's headings: lower case, punctuation dropped, spaces as
    hyphens, repeated headings numbered."""
    seen: dict[str, int] = {}
    anchors: set[str] = set()
    for line in _prose(page).splitlines():
        if not line.startswith("#"):
            continue
        title = line.lstrip("#").strip().lower()
        slug = re.sub(r"[^\w\- ]", "", title).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _links(page: Path) -> list[str]:
    return [
        target
        for target in LINK.findall(_prose(page))
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)  # http:, https:, mailto:
    ]


def test_there_are_pages_with_links() -> None:
    assert len(PAGES) >= 10
    assert sum(len(_links(page)) for page in PAGES) >= 20


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_repository(page: Path) -> None:
    for link in _links(page):
        path_text, _, anchor = link.partition("#")
        target = (page.parent / path_text).resolve() if path_text else page
        assert target.is_relative_to(ROOT), f"{link} leaves the repository"
        assert target.exists(), f"{link}: no {target.relative_to(ROOT)}"
        if anchor and target.suffix == ".md":
            assert anchor in _anchors(target), f"{link}: no heading #{anchor}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_points_outside_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for outside in ("../shared", "shared/RULES.md", "shared/seeds", "/work/"):
        assert outside not in text, f"{page.name} mentions {outside}"
