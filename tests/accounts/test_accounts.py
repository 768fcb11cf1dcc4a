"""Sign-up, log in and out, password change and reset, failed-login throttling (django-axes)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.dom import dom, find, find_all, text

pytestmark = pytest.mark.django_db

User = get_user_model()


def test_sign_up_creates_the_account_and_logs_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "zoe",
            "email": "",
            "password1": "a-long-pass-42",
            "password2": "a-long-pass-42",
        },
    )
    assert response.status_code == 302 and response["Location"] == reverse("home")
    user = User.objects.get(username="zoe")
    assert user.email == ""
    assert int(client.session["_auth_user_id"]) == user.pk


def test_sign_up_keeps_the_e_mail_and_goes_on_to_next(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "zoe",
            "email": "zoe@example.org",
            "password1": "a-long-pass-42",
            "password2": "a-long-pass-42",
            "next": "/join/abc/",
        },
    )
    assert response["Location"] == "/join/abc/"
    assert User.objects.get(username="zoe").email == "zoe@example.org"


def test_sign_up_ignores_a_next_on_another_site(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "zoe",
            "password1": "a-long-pass-42",
            "password2": "a-long-pass-42",
            "next": "https://evil.example.com/",
        },
    )
    assert response["Location"] == reverse("home")


def test_sign_up_with_passwords_that_differ_is_refused(client):
    response = client.post(
        reverse("signup"),
        {"username": "zoe", "password1": "a-long-pass-42", "password2": "a-long-pass-43"},
    )
    assert response.status_code == 200
    assert "didn’t match" in response.content.decode()
    assert not User.objects.filter(username="zoe").exists()


def test_sign_up_page_in_french(client):
    response = client.get(reverse("signup"), headers={"accept-language": "fr"})
    assert "Créer mon compte" in response.content.decode()


def test_signed_in_user_is_sent_from_sign_up_to_the_account(member_client):
    assert member_client.get(reverse("signup"))["Location"] == reverse("account")


def test_log_in_and_log_out(client, member):
    response = client.post(reverse("login"), {"username": "mahmoud", "password": "member-pass-123"})
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == member.pk
    assert client.get(reverse("logout")).status_code == 405  # log out is a POST
    client.post(reverse("logout"))
    assert "_auth_user_id" not in client.session


def test_login_page_links_to_sign_up_and_reset(client):
    page = dom(client.get(reverse("login")))
    main = find(page, "main")
    assert find_all(main, "a", href=reverse("signup"))
    assert find_all(main, "a", href=reverse("password_reset"))


def test_account_page_lists_clubs(member_client, club):
    page = dom(member_client.get(reverse("account")))
    clubs = [text(link) for link in find_all(page, "a", class_="card-link")]
    assert clubs == [f"{club.name} (member)"]
    assert find_all(page, "a", href=reverse("password_change"))


def test_account_page_sends_anonymous_visitors_to_log_in(client):
    response = client.get(reverse("account"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_password_change(member_client, member):
    assert member_client.get(reverse("password_change")).status_code == 200
    response = member_client.post(
        reverse("password_change"),
        {
            "old_password": "member-pass-123",
            "new_password1": "new-secret-pass-7",
            "new_password2": "new-secret-pass-7",
        },
    )
    assert response["Location"] == reverse("password_change_done")
    member.refresh_from_db()
    assert member.check_password("new-secret-pass-7")
    assert member_client.get(reverse("password_change_done")).status_code == 200


def test_password_reset_mails_a_link_that_sets_a_new_password(client, member, mailoutbox):
    member.email = "mahmoud@example.org"
    member.save()
    response = client.post(reverse("password_reset"), {"email": "mahmoud@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["mahmoud@example.org"] and "mahmoud" in mail.body
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mail.body).group(1)
    form_url = client.get(link)["Location"]  # Django swaps the token for a session marker
    assert "set a new password" in client.get(form_url).content.decode().lower()
    response = client.post(
        form_url, {"new_password1": "fresh-pass-2026", "new_password2": "fresh-pass-2026"}
    )
    assert response["Location"] == reverse("password_reset_complete")
    member.refresh_from_db()
    assert member.check_password("fresh-pass-2026")


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert mailoutbox == []


def _fail(client, username="mahmoud"):
    return client.post(reverse("login"), {"username": username, "password": "wrong"})


def test_five_failed_logins_pause_the_username_from_that_address(client, member):
    for _ in range(4):
        assert _fail(client).status_code == 200
    locked = _fail(client)
    assert locked.status_code == 429
    assert "Too many failed attempts" in locked.content.decode()
    # Even the right password is refused now.
    response = client.post(reverse("login"), {"username": "mahmoud", "password": "member-pass-123"})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_lockout_does_not_touch_another_username(client, member, owner):
    for _ in range(5):
        _fail(client)
    response = client.post(reverse("login"), {"username": "olivia", "password": "owner-pass-123"})
    assert response.status_code == 302


def test_a_successful_login_resets_the_failure_count(client, member):
    for _ in range(4):
        _fail(client)
    client.post(reverse("login"), {"username": "mahmoud", "password": "member-pass-123"})
    client.post(reverse("logout"))
    for _ in range(4):
        assert _fail(client).status_code == 200


def test_logins_without_a_request_still_work(client, member):
    # The test client's login() and the shell have no request: the throttle leaves them alone.
    assert client.login(username="mahmoud", password="member-pass-123")
