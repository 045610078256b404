"""Characters that no name, id or chat message may hold (docs/server.md, "Limits";
``keltis.server.textcheck``), each kind named, and text that must still pass."""

from __future__ import annotations

#: One or more of each kind the server refuses, by what it is.
REFUSED = {
    "NUL": "\x00",
    "tab": "\t",
    "line feed": "\n",
    "escape": "\x1b",
    "delete": "\x7f",
    "next line (C1)": "\x85",
    "line separator U+2028": "\u2028",
    "paragraph separator U+2029": "\u2029",
    "right-to-left override U+202E": "\u202e",
    "left-to-right override U+202D": "\u202d",
    "right-to-left embedding U+202B": "\u202b",
    "pop directional formatting U+202C": "\u202c",
    "right-to-left isolate U+2067": "\u2067",
    "first strong isolate U+2068": "\u2068",
    "pop directional isolate U+2069": "\u2069",
    "left-to-right mark U+200E": "\u200e",
    "right-to-left mark U+200F": "\u200f",
    "Arabic letter mark U+061C": "\u061c",
    "zero-width space U+200B": "\u200b",
    "zero-width non-joiner U+200C": "\u200c",
    "zero-width joiner U+200D": "\u200d",
    "word joiner U+2060": "\u2060",
    "zero-width no-break space U+FEFF": "\ufeff",
    "Mongolian vowel separator U+180E": "\u180e",
    "soft hyphen U+00AD": "\u00ad",
    "tag letter U+E0041": "\U000e0041",
}

#: Names (and chat lines) of letters, marks, digits, spaces and symbols from many scripts:
#: all of them pass.
ACCEPTED = ["Zoë", "Łukasz 🎲", "José-María", "Ádám", "Čeněk Šťastný", "Ελένη", "مريم", "李雷"]
