"""The ids in the site's addresses: a row's id is a positive 64-bit integer (``BigAutoField``),
so a number past that range names nothing and is a 404 before any view runs (issue 29).

Django's ``int`` converter takes any run of digits; a view then handed the database a number it
cannot hold, and where the ORM gives up on such a number before asking (``EmptyResultSet``), the
live streams, which compile their query themselves, answered 500. Every id of ``games/urls.py``
goes through this converter instead, so no view meets such a number.
"""

from __future__ import annotations

#: the largest id a row can have (PostgreSQL's bigint; SQLite's integer)
LARGEST_ID = 2**63 - 1


class IdConverter:
    # At most 19 digits: anything longer is past the range without reading it as a number.
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 0 < number <= LARGEST_ID:
            raise ValueError(value)  # no match: the address is a 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)
