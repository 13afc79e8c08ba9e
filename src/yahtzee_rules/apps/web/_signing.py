"""Internal: links signed with the table's key, so a table can refuse links it did not write.

A share code's checksum (CRC-32) catches a link cut short or mistyped; it is no
authentication. The share code's format is public, so anyone can write a link holding
the dice of their choosing, with a checksum that matches. A table given a secret key
(``create_app(secret=...)``, ``yahtzee-rules serve --secret-file FILE`` or the
:data:`SECRET_ENV` variable) adds to every link it writes a signature,
``sig=``: HMAC-SHA256 of the share code and the seats under the key, in URL-safe
base64. It plays only links whose signature matches, compared in constant time
(:func:`hmac.compare_digest`), and answers any other with a 403 page.

A signature proves that the table wrote the position, no more: as the server keeps no
game state, a player can still go back to an earlier signed link (the browser's back
button) and roll again.

Examples:
    >>> signer = LinkSigner(b"a key of sixteen bytes or more")
    >>> signature = signer.sign("y1AAEAA0FubhOa1HCI", "h")
    >>> len(signature)
    43
    >>> signer.check("y1AAEAA0FubhOa1HCI", "h", signature)
    >>> signer.check("y1AAEAA0FubhOa1HCI", "g", signature)
    Traceback (most recent call last):
    ...
    yahtzee_rules.apps.web._signing.ForgedLinkError: link: its signature does not match; this table plays only the links it wrote, signed with its key
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import stat
from collections.abc import Mapping
from pathlib import Path

from yahtzee_rules.support._limits import MAX_SECRET_BYTES, MIN_SECRET_BYTES
from yahtzee_rules.support._text import quote
from yahtzee_rules.support.errors import MalformedInputError, RulesError

__all__ = ["SECRET_ENV", "ForgedLinkError", "LinkSigner", "secret_from"]

SECRET_ENV = "YAHTZEE_RULES_WEB_SECRET"
"""The environment variable ``yahtzee-rules serve`` reads the key from, without ``--secret-file``."""

_CONTEXT = b"yahtzee-rules web table link v1\x00"  # a signature for nothing else


class ForgedLinkError(RulesError):
    """A link a table with a key did not write: no signature, or one that does not match."""


def _key(secret: bytes | str, source: str) -> bytes:
    key = secret.encode("utf-8") if isinstance(secret, str) else bytes(secret)
    if not MIN_SECRET_BYTES <= len(key) <= MAX_SECRET_BYTES:
        raise MalformedInputError(
            f"{source}: {len(key)} bytes; a key is {MIN_SECRET_BYTES} to {MAX_SECRET_BYTES} "
            f"bytes, such as the 64 hex digits of: python -c "
            f'"import secrets; print(secrets.token_hex(32))"'
        )
    return key


class LinkSigner:
    """Signs the links a table writes, and checks the links it is given, with one key.

    Args:
        secret: The key: 16 to 1,024 bytes, or text (its UTF-8).

    Raises:
        MalformedInputError: For a key of another length.
    """

    def __init__(self, secret: bytes | str) -> None:
        self._key = _key(secret, "secret")

    def __repr__(self) -> str:
        return "LinkSigner(<key>)"  # never the key

    def sign(self, code: str, seats: str) -> str:
        """The signature of the link of share code ``code`` with seats text ``seats``."""
        message = b"\x00".join(
            (
                _CONTEXT,
                code.encode("utf-8", "surrogatepass"),
                seats.encode("utf-8", "surrogatepass"),
            )
        )
        digest = hmac.new(self._key, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")

    def check(self, code: str, seats: str | None, signature: str | None) -> None:
        """Return if ``signature`` is this table's for the link; ForgedLinkError if not."""
        if signature is None:
            raise ForgedLinkError(
                "link: it has no signature; this table plays only the links it wrote, "
                "signed with its key"
            )
        expected = self.sign(code, seats if seats is not None else "").encode("ascii")
        given = signature.encode("utf-8", "surrogatepass")
        if not hmac.compare_digest(expected, given):  # constant time: no byte-by-byte oracle
            raise ForgedLinkError(
                "link: its signature does not match; this table plays only the links it "
                "wrote, signed with its key"
            )


def secret_from(
    secret_file: str | os.PathLike[str] | None, environ: Mapping[str, str]
) -> bytes | None:
    """The key ``serve`` signs with: the file's bytes (surrounding whitespace removed), else
    :data:`SECRET_ENV`'s value; ``None`` with neither.

    Only a regular file is read (a FIFO or a device is refused, never waited on), and no
    more than :data:`~yahtzee_rules.support._limits.MAX_SECRET_BYTES` of it.

    Raises:
        MalformedInputError: For a file that is no regular file, or a key of the wrong length.
        OSError: For a file that cannot be opened.
    """
    if secret_file is None:
        text = environ.get(SECRET_ENV)
        return None if text is None else _key(text.strip(), SECRET_ENV)
    path = Path(secret_file)
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        regular = stat.S_ISREG(os.fstat(descriptor).st_mode)
    except BaseException:
        os.close(descriptor)
        raise
    if not regular:
        os.close(descriptor)
        raise MalformedInputError(
            f"secret file {quote(str(path))}: not a regular file; give a file holding the key"
        )
    with os.fdopen(descriptor, "rb") as file:
        data = file.read(MAX_SECRET_BYTES + 3)  # room for a final newline
    return _key(data.strip(), f"secret file {quote(str(path))}")
