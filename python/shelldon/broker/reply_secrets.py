"""Does a model's reply ask the owner for a secret? One of broker.reply_check's reasons.

The pet never needs the owner's password, PIN, one-time code, card number or seed phrase: a key
it uses lives in the vault, which the owner fills by hand (`shelldon vault set`), and nothing the
owner tells it in a chat is kept as a secret (the gate refuses it). So a reply that asks for one
is a hostile or confused model, or a model steered by text it read (an injected page, a poisoned
memory): "Could you send me the code your bank just texted you?", "What's your Netflix password?
I'll remember it", "Dimmi il tuo PIN". Such a reply is unusable like any other, and the chain asks
the next provider, the offline brain last (broker.chain), so the owner never reads it.

Read: an order or a question to the owner ("tell / send / give / share … me your …", "reply
with your …", "what's your …", "I need your …") about a secret's word, in English, German,
French, Spanish, Italian, Dutch and Portuguese. Not read: advice about secrets ("never share
your PIN with anyone", "you can change your password in Settings", "enter your PIN at the
machine"), a negated ask ("I'll never ask for your password", "don't send me your code"), and
everyday codes ("your postcode", "your promo code").
"""

from __future__ import annotations

import functools
import re
import unicodedata

_W = r"[\w'’-]+"
_FEW = rf"(?:{_W}\s+){{0,3}}?"  # "your bank's one-time", "dein neues"

_SECRET_EN = (
    r"(?:pass(?:word|code|phrase)s?|pins?(?:\s+(?:code|number)s?)?|otps?|cvv|cvc|iban|ssn"
    r"|(?:one[- ]time|verification|security|login|log-in|2fa|two[- ]factor|sms|text|auth"
    r"|authentication|access|confirmation|bank(?:ing)?|unlock)\s+(?:codes?|pins?|numbers?)"
    r"|(?:credit|debit|bank)\s+card(?:\s+(?:numbers?|details))?|card\s+(?:numbers?|details|pins?)"
    r"|(?:seed|recovery|mnemonic|backup)\s+(?:phrases?|words|codes?)|(?:private|secret|api)\s+keys?"
    r"|(?:bank(?:ing)?|account)\s+(?:logins?|credentials|details|passwords?)|credentials"
    r"|log-?in\s+details|social\s+security\s+numbers?|account\s+numbers?)"
)
_NOT_SECRET_AFTER = (
    r"(?!\s+(?:manager|managers|policy|policies|strength|rules?|requirements?|reset|hint|length"
    r"|app|settings?|page|screen|field|box|games?|ideas?|tips?)\b)"
)
_TO_OWNER = r"(?:tell|send|give|share|text|e-?mail|dm|message|forward|paste|read\s+out|provide|reveal|hand\s+over|show|whisper|write\s+down\s+for)"  # noqa: E501
_ASK_EN = (
    # "tell me your PIN", "send us your bank's one-time code", "tell me what your password is"
    rf"\b{_TO_OWNER}\s+(?:it\s+to\s+|with\s+)?(?:me|us)\s+(?:{_W}\s+){{0,2}}?your\s+{_FEW}{_SECRET_EN}"
    # "send your card number to me", "paste your seed phrase here"
    rf"|\b{_TO_OWNER}\s+(?:{_W}\s+){{0,2}}?your\s+{_FEW}{_SECRET_EN}\s+(?:{_W}\s+){{0,2}}?"
    r"(?:(?:to|with)\s+(?:me|us)\b|here\b|in\s+(?:this|the)\s+chat\b|so\s+(?:that\s+)?(?:i|we)\b"
    r"|and\s+(?:i|we)(?:'ll|’ll|\s+will|\s+can)?\b)"
    # "send me the code your bank just texted you", "tell us the PIN you got"
    rf"|\b{_TO_OWNER}\s+(?:me|us)\s+the\s+{_FEW}(?:codes?|pins?|{_SECRET_EN})\s+(?:that\s+|which\s+)?"
    r"(?:you|your\s+[\w'’-]+|they|it|the\s+bank)\s+(?:just\s+|have\s+|has\s+|'ve\s+)?"
    r"(?:got|get|received|receive|were\s+sent|was\s+sent|texted|sent|emailed|gave|generated|shows?)\b"
    rf"|\b(?:reply|respond|answer|write\s+back|get\s+back\s+to\s+me)\s+with\s+(?:{_W}\s+){{0,2}}?"
    rf"your\s+{_FEW}{_SECRET_EN}"
    rf"|\bwhat(?:'s|’s|\s+is|\s+are|\s+was|\s+were)\s+your\s+{_FEW}{_SECRET_EN}{_NOT_SECRET_AFTER}"
    r"|\b(?:i|we)(?:\s+will|'ll|’ll)?\s+(?:just\s+|only\s+|still\s+|first\s+)?"
    r"(?:need|require|want|must\s+have)"
    rf"\s+(?:to\s+(?:know|have|see|get|check|verify)\s+)?your\s+{_FEW}{_SECRET_EN}"
    rf"|\b(?:can|could|would|will)\s+you\s+(?:please\s+|just\s+|quickly\s+)?(?:{_TO_OWNER}|confirm)"
    rf"\s+(?:me\s+|us\s+)?your\s+{_FEW}{_SECRET_EN}"
)
# A German compound's first part: "WLAN-Passwort", "Bankpasswort", "Netflix-Kennwort".
_DE_PREFIX = r"(?:[\w]+-|wlan|wifi|bank|konto|online|karten|e?mail|handy|netflix|amazon|paypal)?"
_ASK_OTHERS = (
    # German: "sag mir dein Passwort", "schick uns deine TAN", "wie lautet deine PIN"
    r"|\b(?:sag|sage|sagen\s+sie|schick|schicke|schicken\s+sie|sende|senden\s+sie|gib|geben\s+sie|"
    r"nenn|nenne|nennen\s+sie|teil|teile|teilen\s+sie|verrat|verrate|schreib|schreibe)\s+(?:mir|uns)"
    r"\s+(?:[\w-]+\s+){0,2}?(?:dein|deine|deinen|ihr|ihre|ihren|die|den|das)\s+(?:[\w-]+\s+){0,2}?"
    rf"{_DE_PREFIX}(?:passwort|kennwort|pin|pin-code|pincode|tan|geheimzahl|zugangsdaten|kartennummer"
    r"|iban|best(?:ä|a)tigungscode|sicherheitscode|einmalcode)\b"
    r"|\b(?:wie\s+lautet|was\s+ist)\s+(?:dein|deine|ihr|ihre)\s+(?:[\w-]+\s+){0,2}?"
    rf"{_DE_PREFIX}(?:passwort|kennwort|pin|pincode|tan|geheimzahl|zugangsdaten|kartennummer)\b"
    # French: "donne-moi ton mot de passe", "quel est votre code PIN"
    r"|\b(?:donne|donnez|envoie|envoyez|dis|dites|communique|communiquez|indique|indiquez"
    r"|transmets|transmettez|partage|partagez|écris|ecris|écrivez|ecrivez)[- ](?:moi|nous)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:ton|ta|tes|votre|vos|le|la|les)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:mot\s+de\s+passe|code\s+(?:pin|secret|de\s+confirmation|de\s+v(?:é|e)rification|re(?:ç|c)u)"
    r"|pin|num(?:é|e)ro\s+de\s+(?:carte|compte)|identifiants|cryptogramme)\b"
    r"|\bquel(?:le)?\s+est\s+(?:ton|ta|votre)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:mot\s+de\s+passe|code\s+(?:pin|secret)|pin|num(?:é|e)ro\s+de\s+carte)\b"
    # Spanish: "dime tu contraseña", "envíame el código que te llegó"
    r"|\b(?:dame|deme|dime|d(?:í|i)game|env(?:í|i)ame|env(?:í|i)enos|m(?:á|a)ndame|p(?:á|a)same"
    r"|comp(?:á|a)rteme|escr(?:í|i)beme|ind(?:í|i)came|facil(?:í|i)tame)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:tu|su|tus|sus|el|la)\s+(?:[\w-]+\s+){0,2}?(?:contrase(?:ñ|n)a|clave|pin"
    r"|c(?:ó|o)digo(?!\s+postal)|n(?:ú|u)mero\s+de\s+(?:la\s+)?tarjeta|credenciales)\b"
    r"|\bcu(?:á|a)l\s+es\s+(?:tu|su)\s+(?:[\w-]+\s+){0,2}?(?:contrase(?:ñ|n)a|clave|pin)\b"
    # Italian: "dimmi la tua password", "mandami il codice che ti è arrivato"
    r"|\b(?:dammi|mi\s+dai|dimmi|mandami|inviami|scrivimi|passami|comunicami|dicci|mandaci)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:la\s+tua|il\s+tuo|i\s+tuoi|le\s+tue|la\s+sua|il\s+suo|il|la)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:password|pin|codice(?!\s+(?:postale|fiscale|sconto))|credenziali"
    r"|numero\s+della\s+carta)\b"
    r"|\bqual\s*(?:è|e|'è)\s+(?:la\s+tua|il\s+tuo)\s+(?:[\w-]+\s+){0,2}?(?:password|pin)\b"
    # Dutch: "geef me je wachtwoord", "stuur me de code die je kreeg"
    r"|\b(?:geef|stuur|vertel|zeg|deel|mail|app|noem)\s+(?:me|mij|ons)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:je|jouw|uw|de)\s+(?:[\w-]+\s+){0,2}?(?:wachtwoord|pincode|pin|inlogcode|inloggegevens"
    r"|verificatiecode|sms-code|kaartnummer|iban)\b"
    r"|\bwat\s+is\s+(?:je|jouw|uw)\s+(?:[\w-]+\s+){0,2}?(?:wachtwoord|pincode|pin|inlogcode)\b"
    # Portuguese: "me diga a sua senha", "envie-me o código"
    r"|\b(?:me\s+)?(?:d(?:á|a)|diga|diz|envie|envia|mande|manda|passe|passa|informe|informa)"
    r"(?:-me)?\s+(?:[\w-]+\s+){0,2}?(?:a\s+sua|o\s+seu|a\s+tua|o\s+teu|sua|seu|tua|teu|a|o)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:senha|pin|c(?:ó|o)digo(?!\s+postal)|credenciais"
    r"|n(?:ú|u)mero\s+do\s+cart(?:ã|a)o)\b"
    r"|\bqual\s+(?:é|e)\s+(?:a\s+sua|a\s+tua|o\s+seu|o\s+teu|sua|tua|seu|teu)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:senha|pin)\b"
)
# Every ask names a secret's word: a reply without one is passed without the big pattern, which
# is compiled the first time a reply has one (~10 ms and ~0.2 MB on x86: not at the broker's
# start, and not at all in a chat that never comes near a secret).
_HINT = re.compile(
    r"pass|\bpin|c[oó]d|otp|cvv|cvc|iban|ssn|seed|phrase|key|creden|log-?in|card|cart|tarjeta|karte|kaart"
    r"|\btan\b|wort|geheimzahl|zugangsdaten|identifiant|cryptogramme|contrase|clave|senha"
    r"|wachtwoord|inlog|security|recovery|mnemonic|backup|account|compte",
    re.IGNORECASE,
)


@functools.cache
def _ask() -> re.Pattern[str]:
    return re.compile(_ASK_EN + _ASK_OTHERS, re.IGNORECASE)


# A negation in the ask's own clause, before it or inside it: advice, not an ask.
_NEGATION = re.compile(
    r"\b(?:never|don'?t|don’t|do\s+not|not|no\s+one|nobody|no\s+need|nie|niemals|nicht|niemandem"
    r"|keine?n?|jamais|ne|n'|no|nunca|nadie|mai|non|nessuno|nooit|niet|niemand|geen|não|nao|ninguém)\b",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"[.!?;,:\n—–]")


def asks_for_secret(text: str) -> bool:
    """True when `text` asks its reader for a password, PIN, one-time code, card number or the
    like, in one of the languages above (the module's docstring)."""
    flat = unicodedata.normalize("NFKC", text)
    if not _HINT.search(flat):
        return False
    for match in _ask().finditer(flat):
        before = flat[: match.start()]
        ends = [m.end() for m in _CLAUSE_END.finditer(before)]
        clause = before[ends[-1] if ends else 0 :] + match.group(0)
        if not _NEGATION.search(clause):
            return True
    return False
