"""docs/security.md says what is defended and names the tests that check it: every test file
and test it names exists, and what it says of who sees the member list is what the site does
(issue 29: it said owner-only pages, the members page among them, answer 404 to members, while
every member sees the list)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")


def test_every_test_file_the_page_names_exists():
    named = set(re.findall(r"tests/[\w/]+\.py", DOC))
    assert named and not [path for path in sorted(named) if not (ROOT / path).is_file()]


def test_every_test_the_page_names_exists():
    sources = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "tests").rglob("*.py"))
    named = set(re.findall(r"`(test_\w+)`", DOC))
    assert named and not [name for name in sorted(named) if f"def {name}(" not in sources]


@pytest.mark.django_db
def test_what_the_page_says_of_the_member_list_is_what_a_member_gets(member_client, club):
    owner_only = re.search(r"Owner-only pages and actions \(([^)]*)\)", DOC)
    assert owner_only and "member list" not in owner_only.group(1)
    assert "members" not in owner_only.group(1).replace("removing a member", "")
    assert "member list itself is every member's to see" in DOC
    assert member_client.get(reverse("club-members", args=[club.pk])).status_code == 200
