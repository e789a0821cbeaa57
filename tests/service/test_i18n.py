"""Every label the pages show exists in Thai and Malay (a missing one falls back to English,
which a Malay judge read on every clause page: "Submit a ruling on this clause")."""

import pytest

from judgekb.service.i18n import LABELS, NOTES
from judgekb.service.ruling_i18n import RULING_LABELS


@pytest.mark.parametrize("table", [LABELS, RULING_LABELS], ids=["pages", "rulings"])
@pytest.mark.parametrize("lang", ["th", "ms"])
def test_every_label_is_translated(table, lang) -> None:
    missing = sorted(set(table["en"]) - set(table[lang]))
    assert missing == []
    assert all(table[lang][k].strip() for k in table[lang])


@pytest.mark.parametrize("lang", ["th", "ms"])
def test_every_note_is_translated(lang) -> None:
    assert sorted(set(NOTES["en"]) - set(NOTES[lang])) == []
