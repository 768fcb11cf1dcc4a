"""The property tests are deterministic in CI (tests/conftest.py): the same examples every run,
so a red CI run is the code's fault, not the dice's; locally they keep exploring at random."""

import os

from hypothesis import settings

from tests.conftest import hypothesis_profile


def test_ci_loads_the_derandomized_profile():
    for value in ("1", "true", "yes", "TRUE"):
        assert hypothesis_profile({"CI": value}) == "ci"
    assert settings.get_profile("ci").derandomize is True
    assert settings.get_profile("ci").database is None


def test_a_local_run_keeps_exploring_at_random():
    for environ in ({}, {"CI": ""}, {"CI": "0"}, {"CI": "false"}):
        assert hypothesis_profile(environ) == "dev"
    assert settings.get_profile("dev").derandomize is False


def test_the_profile_for_this_environment_is_loaded_and_inherited_by_the_suites_settings():
    expected = hypothesis_profile(os.environ) == "ci"
    assert settings.default.derandomize is expected
    # What the suites write, e.g. FAST = settings(max_examples=60, deadline=None)
    assert settings(max_examples=60, deadline=None).derandomize is expected
