"""The library's text in its players' languages: gettext catalogues, chosen by ``locale=``.

English is the default and the catalogues' source language; German (``de``), French
(``fr``), Swedish (``sv``), Danish (``da``) and Spanish (``es``) each have a catalogue
with the names that language's players use (Kniffel's *Dreierpasch*, Yams' *brelan*,
Yatzy's *Kåk*...). The catalogues are standard GNU gettext files shipped in the
package (``yahtzee_rules/support/locales/<lang>/LC_MESSAGES/yahtzee_rules.po``, with
the compiled ``.mo`` beside each) and are read with the standard library's
:mod:`gettext`, so no runtime dependency is added.

Only text changes with the locale: codes, notation, JSON and share codes are the same
in every language.

Every function of the library that takes ``locale=`` accepts a language code
(``"de"``), a code with a region or an encoding (``"de_AT"``, ``"de-DE"``,
``"sv_SE.UTF-8"``: each falls back to its language) or ``None`` for English, and
raises :class:`~yahtzee_rules.support.errors.UnknownLocaleError` for any other.

Examples:
    >>> from yahtzee_rules import Category
    >>> Category.THREE_OF_A_KIND.label_in("de"), Category.SMALL_STRAIGHT.label_in("fr")
    ('Dreierpasch', 'Petite suite')
    >>> resolve_locale("de-AT"), resolve_locale(None)
    ('de', 'en')
    >>> translations("sv").pgettext("YatzyBox", "Chance")
    'Chans'
"""

from __future__ import annotations

import functools
import gettext
import re
from importlib import resources

from yahtzee_rules.support._limits import MAX_ACCEPT_LANGUAGE_LENGTH
from yahtzee_rules.support._text import show
from yahtzee_rules.support.errors import UnknownLocaleError

__all__ = [
    "DEFAULT_LOCALE",
    "DOMAIN",
    "LOCALES",
    "NATIVE_NAMES",
    "best_locale",
    "resolve_locale",
    "translations",
]

DEFAULT_LOCALE = "en"
"""The language of the library's own text, and of every ``locale=`` left out."""

LOCALES = ("en", "de", "fr", "sv", "da", "es")
"""Every locale the library has text for, English first."""

NATIVE_NAMES = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "sv": "Svenska",
    "da": "Dansk",
    "es": "Español",
}
"""Each locale's name in its own language, as a language switch shows it.

Examples:
    >>> [NATIVE_NAMES[locale] for locale in LOCALES][:3]
    ['English', 'Deutsch', 'Français']
"""

DOMAIN = "yahtzee_rules"
"""The gettext domain: each catalogue is ``locales/<lang>/LC_MESSAGES/yahtzee_rules.mo``."""

_LANGUAGE_RE = re.compile(r"[A-Za-z]{2,8}")
_SEPARATORS_RE = re.compile(r"[-_.@]")


def resolve_locale(locale: str | None) -> str:
    """The available locale ``locale`` names: its language, when the library has text for it.

    ``None`` is English. Case is ignored, and a region, an encoding or a modifier falls
    back to the language (``"de_AT"``, ``"de-DE"`` and ``"DE"`` are all ``"de"``).

    Raises:
        UnknownLocaleError: If ``locale`` is not text, or names a language the library has
            no catalogue for; the message names it and the locales available.

    Examples:
        >>> resolve_locale("sv_SE.UTF-8"), resolve_locale("FR"), resolve_locale("es-419")
        ('sv', 'fr', 'es')
        >>> resolve_locale("pt-BR")
        Traceback (most recent call last):
        ...
        yahtzee_rules.support.errors.UnknownLocaleError: locale 'pt-BR': no catalogue for it; available: en, de, fr, sv, da, es (a region such as 'de-AT' falls back to its language)
    """
    if locale is None:
        return DEFAULT_LOCALE
    if isinstance(locale, str):
        language = _SEPARATORS_RE.split(locale.strip(), maxsplit=1)[0].lower()
        if language in LOCALES:
            return language
    raise UnknownLocaleError(
        f"locale {show(locale, 60)}: no catalogue for it; available: {', '.join(LOCALES)} "
        f"(a region such as 'de-AT' falls back to its language)"
    )


@functools.cache
def _catalogue(language: str) -> gettext.NullTranslations:
    if language == DEFAULT_LOCALE:
        return gettext.NullTranslations()
    path = resources.files(__package__ or "yahtzee_rules.support").joinpath(
        "locales", language, "LC_MESSAGES", f"{DOMAIN}.mo"
    )
    with path.open("rb") as file:
        return gettext.GNUTranslations(file)


def translations(locale: str | None = None) -> gettext.NullTranslations:
    """The catalogue of ``locale``, as the standard library's :mod:`gettext` reads it.

    Use its ``gettext`` and ``pgettext`` methods; a text the catalogue lacks comes back
    in English. English itself is a catalogue that changes nothing. Each catalogue is
    read once and kept.

    Raises:
        UnknownLocaleError: As :func:`resolve_locale`.

    Examples:
        >>> translations("de").pgettext("Category", "Yahtzee")
        'Kniffel'
        >>> translations().pgettext("Category", "Yahtzee")
        'Yahtzee'
        >>> translations("es").gettext("no such text")
        'no such text'
    """
    return _catalogue(resolve_locale(locale))


def best_locale(accept_language: str | None) -> str:
    """The available locale a browser's ``Accept-Language`` header prefers; English if none.

    Languages are taken in the order of their weights (``q=``), ties in the order
    written; a region falls back to its language (``de-CH`` is ``de``), ``*`` and
    unknown languages are passed over, and a weight of 0 refuses a language. Only the
    first ``MAX_ACCEPT_LANGUAGE_LENGTH`` characters are read; malformed entries are
    skipped, as a header is not the user's own typing.

    Examples:
        >>> best_locale("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")
        'fr'
        >>> best_locale("pt-BR,pt;q=0.9,da;q=0.8"), best_locale(None), best_locale("*")
        ('da', 'en', 'en')
        >>> best_locale("de;q=0, sv;q=0.1")
        'sv'
    """
    if not accept_language:
        return DEFAULT_LOCALE
    ranked: list[tuple[float, int, str]] = []
    refused: set[str] = set()
    for place, entry in enumerate(accept_language[:MAX_ACCEPT_LANGUAGE_LENGTH].split(",")):
        tag, _, params = entry.strip().partition(";")
        language = _SEPARATORS_RE.split(tag.strip(), maxsplit=1)[0].lower()
        if not _LANGUAGE_RE.fullmatch(language) or language not in LOCALES:
            continue
        weight = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                weight = float(value.strip()[:5])
            except ValueError:
                continue
        if not 0 <= weight <= 1:  # NaN too
            continue
        if weight == 0:
            refused.add(language)
            continue
        ranked.append((-weight, place, language))
    for _, _, language in sorted(ranked):
        if language not in refused:
            return language
    return DEFAULT_LOCALE
