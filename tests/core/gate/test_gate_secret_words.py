"""Issue 23's third red team on credentials (docs/gate-design.md, "Third red team: password words
in more languages, bare PINs, keys over query values"): a password or PIN word in a language the
earlier rules did not know (`password-more-languages`), a PIN behind a label with no verb
(`pin-after-label`), and a provider's key cut over two URL query values (`gate.glued` runs end at
an "="). Each class through the screen the writer uses; then a held-apart list, written after the
rules and run as written, of 10 such secrets and 10 close owner sentences.

Keys are made up and built by concatenation, so no scanner reads this file as holding one."""

from __future__ import annotations

import pytest

from shelldon.core.gate import screen_text
from shelldon.core.gate.glued import fragments

WORDS = {
    "dutch": ("Het wachtwoord is Zon2025!Maan", "password-more-languages"),
    "swedish": ("Mitt lösenord är Kanel#Bulle7", "password-more-languages"),
    "norwegian compound": ("Wifi-passordet er Fjord2024", "password-more-languages"),
    "danish": ("Adgangskoden til routeren er Hygge!99", "password-more-languages"),
    "polish": ("Hasło do konta to Kot2024!x", "password-more-languages"),
    "czech": ("Heslo je Praha#1989", "password-more-languages"),
    "turkish colon": ("Wifi şifresi: Kedi2024!", "password-more-languages"),
    "turkish no verb": ("Ev şifrem Simit1453", "password-more-languages"),
    "turkish capitals": ("ŞİFRE: Kedi2024!", "password-more-languages"),
    "portuguese": ("A senha do banco é Sol#2023", "password-more-languages"),
    "finnish": ("Salasana on Kissa2024", "password-more-languages"),
    # A four-digit PIN with a repeated digit (entropy 1.5 bits a character).
    "dutch pin": ("De pincode van de kluis is 4711", "password-more-languages"),
    "swedish pin": ("PIN-koden är 4711", "password-more-languages"),
    "spanish pin": ("El código PIN es 4711", "password-more-languages"),
    "safe pin": ("Safe PIN 94728315", "pin-after-label"),
    "alarm code": ("alarm code 4471#", "pin-after-label"),
    "tresor pin": ("Tresor PIN 4711", "pin-after-label"),
    "combination": ("the bike lock combination 0815", "pin-after-label"),
}


@pytest.mark.parametrize(("text", "rule"), WORDS.values(), ids=WORDS.keys())
def test_password_words_and_bare_pins_are_refused(text: str, rule: str) -> None:
    refusal = screen_text(text)
    assert refusal is not None and refusal.code == "secret", text
    assert rule in refusal.rule_ids, (text, refusal.rule_ids)


CLOSE = [
    "Het wachtwoord is veilig.",
    "Mitt lösenord är hemligt!",
    "Hasło jest tajne!",
    "Heslo je na lednici.",
    "la parola è bella",
    "PIN 2 on the Raspberry Pi header",
    "code 404 error",
    "room code 12",
    "zip code 10115",
    "GPIO pin 17 drives the LED",
    "door code changed in 2024",
]


@pytest.mark.parametrize("text", CLOSE)
def test_close_words_without_a_value_are_kept(text: str) -> None:
    assert screen_text(text) is None, text


GH = "ghp_" + "Wd4Rk8Zq2Lx6Tn1Vc7Hp3Yb9Jf5Gs0Ma2UeQ"
SK = "sk-proj-" + "Nb5Xq2Zr8Lk4Tw1Vm7Yc3Pd9Jf6Gs0Ha"


@pytest.mark.parametrize(
    "text",
    [
        f"The callback was https://x.example/cb?a={GH[:20]}&b={GH[20:]}",
        f"https://hooks.example/in?part1={SK[:18]}&part2={SK[18:]}&v=2",
    ],
    ids=["github halves", "openai halves"],
)
def test_key_in_halves_over_query_values_is_refused(text: str) -> None:
    assert screen_text(text) is not None, text


def test_a_run_ends_at_an_equals_sign_not_padding() -> None:
    # "a=ghp_..." is the name, then the value; base64 padding stays on its run.
    assert fragments(f"?a={GH[:20]}&b=dGVzdDEyMw==") == [GH[:20], "dGVzdDEyMw=="]


# Held apart: written after the rules above and run once as written (docs/gate-design.md).
HELD_SECRETS = [
    "Het wifi-wachtwoord van oma is Tulp!2019",
    "Lösenordet till routern är Älg7Skog",
    "Passordet mitt er Nordlys#42",
    "Hasło do Wi-Fi: Pierogi88",
    "Heslo k Wi-Fi je Knedlik2020",
    "Banka şifresi 7392",
    "Minha senha do Gmail é Praia2024",
    "Wifi-salasana on Sauna#123",
    "Garage code 58213",
    "Front door PIN 7194#",
]
HELD_OWNER = [
    "Het wachtwoord van de wifi staat op de router.",
    "Jag glömde mitt lösenord igen.",
    "Passordet er for kort, sier banken.",
    "Hasło jest w szufladzie.",
    "Heslo k Wi-Fi je na krabici.",
    "Şifremi unuttum, yarın değiştireceğim.",
    "A senha do Wi-Fi é a mesma de sempre.",
    "The garage code has six digits now.",
    "Error code 5012 when printing again.",
    "Mia's locker is number 1142 at school.",
]


@pytest.mark.parametrize("text", HELD_SECRETS)
def test_held_apart_secrets(text: str) -> None:
    assert screen_text(text) is not None, text


@pytest.mark.parametrize("text", HELD_OWNER)
def test_held_apart_owner_lines(text: str) -> None:
    assert screen_text(text) is None, text
