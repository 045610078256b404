"""The translation catalogs the browser client reads: the language index and each
language's messages, made from the ``.po`` files at run time (the same as ``python -m
keltis.catalogs json`` writes)."""

from __future__ import annotations

from keltis.catalogs import catalog_json, read_catalog
from keltis.i18n import LANGUAGES
from keltis.messages import MESSAGES
from server.harness import Server


def test_every_language_with_its_plural_forms(web_server: Server) -> None:
    with web_server.http() as http:
        index = http.get("/api/catalogs")
        assert index.status_code == 200
        assert index.json() == LANGUAGES
        for lang, name in LANGUAGES.items():
            answer = http.get(f"/api/catalogs/{lang}")
            assert answer.status_code == 200, lang
            catalog = answer.json()
            assert catalog == catalog_json(lang, name)
            assert (catalog["lang"], catalog["name"]) == (lang, name)
            nplurals = catalog["plural"]["nplurals"]
            assert nplurals == (2 if lang == "en" else read_catalog(lang).num_plurals)
            plurals = {k: v for k, v in catalog["messages"].items() if isinstance(v, dict)}
            assert plurals, lang
            for key, entry in plurals.items():
                assert MESSAGES[key].plural is not None
                assert entry["count"] == MESSAGES[key].count
                assert len(entry["forms"]) == nplurals, (lang, key)
            assert len(catalog["colours"]) == 5
            # asked again with its ETag: not modified
            again = http.get(
                f"/api/catalogs/{lang}", headers={"If-None-Match": answer.headers["etag"]}
            )
            assert again.status_code == 304
        assert (
            http.get("/api/catalogs/de")
            .json()["messages"]["server.no_setup"]
            .endswith("--allow-setup.")
        )


def test_an_unknown_language_is_not_found(web_server: Server) -> None:
    with web_server.http() as http:
        for lang in ("xx", "EN", "de-DE", "klingon"):
            answer = http.get(f"/api/catalogs/{lang}", headers={"Accept-Language": "de"})
            assert answer.status_code == 404, lang
            error = answer.json()["error"]
            assert error["code"] == "server.no_language"
            assert error["message"].startswith("Es gibt keine Sprache")
            assert lang in error["message"]
            assert "de, cs" in error["message"] or "en, de" in error["message"]
