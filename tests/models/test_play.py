"""games.models.Play's own properties."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.models import Play


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("status", [*Play.Status.values, "not-a-status"])
def test_the_status_label_is_what_django_says_of_it(status, language):
    play = Play(status=status)
    with translation.override(language):
        assert play.status_label == play.get_status_display()
        assert type(play.status_label) is str
