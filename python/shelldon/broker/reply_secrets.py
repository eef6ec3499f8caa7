"""Does a model's reply ask the owner for a secret? One of broker.reply_check's reasons.

The pet never needs the owner's password, PIN, one-time code, card number or seed phrase: a key
it uses lives in the vault, which the owner fills by hand (`shelldon vault set`), and nothing the
owner tells it in a chat is kept as a secret (the gate refuses it). So a reply that asks for one
is a hostile or confused model, or a model steered by text it read (an injected page, a poisoned
memory): "Could you send me the code your bank just texted you?", "What's your Netflix password?
I'll remember it", "Dimmi il tuo PIN". Such a reply is unusable like any other, and the chain asks
the next provider, the offline brain last (broker.chain), so the owner never reads it.

Read: an order or a question to the owner ("tell / send / give / share … me your …", "reply
with your …", "what's your …", "I need your …", "forward me the code from your bank") about a
secret's word, in English, German,
French, Spanish, Italian, Dutch and Portuguese. Not read: advice about secrets ("never share
your PIN with anyone", "you can change your password in Settings", "enter your PIN at the
machine"), a negated ask ("I'll never ask for your password", "don't send me your code"), and
everyday codes ("your postcode", "your promo code").

Cost: the secrets' words are one small pattern compiled at the first reply (~1.4 ms, ~0.3 MB RSS
on x86); the asks are compiled only when a reply names a secret (~4.6 ms, ~0.3 MB), and read in
~11 µs a reply after that.
"""

from __future__ import annotations

import functools
import re
import unicodedata

# Read on lower-cased text in two steps, so no pattern carries the secrets' words more than once:
# every secret's word or phrase becomes one mark (`_MARK`), then the asks are read around it.
_MARK = "\x00"
_W = r"[\w'’-]+"
_FEW = rf"(?:{_W}\s+){{0,3}}?"  # "your bank's one-time", "dein neues"
# A German compound's first part: "WLAN-Passwort", "Bankpasswort", "Netflix-Kennwort".
_DE_PREFIX = r"(?:\w+-|wlan|wifi|bank|konto|online|karten|e?mail|handy|netflix|amazon|paypal)?"
_SECRETS = (
    # English
    r"\b(?:pass(?:word|code|phrase)s?|pins?(?:\s+(?:code|number)s?)?|otps?|cvv|cvc|iban|ssn"
    r"|(?:one[- ]time|verification|security|login|log-in|2fa|two[- ]factor|sms|text|auth"
    r"|authentication|access|confirmation|bank(?:ing)?|unlock)\s+(?:codes?|pins?|numbers?)"
    r"|(?:credit|debit|bank)\s+card(?:\s+(?:numbers?|details))?|card\s+(?:numbers?|details|pins?)"
    r"|(?:seed|recovery|mnemonic|backup)\s+(?:phrases?|words|codes?)|(?:private|secret|api)\s+keys?"
    r"|(?:bank(?:ing)?|account)\s+(?:logins?|credentials|details|passwords?)|credentials"
    r"|log-?in\s+details|social\s+security\s+numbers?|account\s+numbers?"
    # German
    rf"|{_DE_PREFIX}(?:passwort|kennwort|pin-code|pincode|tan|geheimzahl|zugangsdaten"
    r"|kartennummer|best(?:ä|a)tigungscode|sicherheitscode|einmalcode)"
    # French
    r"|mot\s+de\s+passe|code\s+(?:pin|secret|de\s+confirmation|de\s+v(?:é|e)rification|re(?:ç|c)u)"
    r"|num(?:é|e)ro\s+de\s+(?:carte|compte)|identifiants|cryptogramme"
    # Spanish, Italian, Portuguese
    r"|contrase(?:ñ|n)a|clave|c(?:ó|o)digo(?!\s+postal)|n(?:ú|u)mero\s+de\s+(?:la\s+)?tarjeta"
    r"|credenciales|codice(?!\s+(?:postale|fiscale|sconto))|credenziali|numero\s+della\s+carta"
    r"|senha|credenciais|n(?:ú|u)mero\s+do\s+cart(?:ã|a)o"
    # Dutch
    r"|wachtwoord|inlogcode|inloggegevens|verificatiecode|sms-code|kaartnummer)\b"
    # Not a secret when it names something about one: "your password manager", "PIN policy".
    r"(?!\s+(?:manager|managers|policy|policies|strength|rules?|requirements?|reset|hint|length"
    r"|app|settings?|page|screen|field|box|games?|ideas?|tips?)\b)"
)
_S = _MARK
_TO_OWNER = (
    r"(?:tell|send|give|share|text|e-?mail|dm|message|forward|paste|read\s+out|provide|reveal"
    r"|hand\s+over|show|whisper|write\s+down\s+for)"
)
_ASKS = (
    # English. "tell me your PIN", "send us your bank's one-time code", "tell me what your …"
    rf"\b{_TO_OWNER}\s+(?:it\s+to\s+|with\s+)?(?:me|us)\s+(?:{_W}\s+){{0,2}}?your\s+{_FEW}{_S}"
    # "send your card number to me", "paste your seed phrase here"
    rf"|\b{_TO_OWNER}\s+(?:{_W}\s+){{0,2}}?your\s+{_FEW}{_S}\s*(?:{_W}\s+){{0,2}}?"
    r"(?:(?:to|with)\s+(?:me|us)\b|here\b|in\s+(?:this|the)\s+chat\b|so\s+(?:that\s+)?(?:i|we)\b"
    r"|and\s+(?:i|we)(?:'ll|’ll|\s+will|\s+can)?\b)"
    # "forward me the SMS code from your bank", "tell me the password to your Netflix account"
    rf"|\b{_TO_OWNER}\s+(?:it\s+to\s+|with\s+)?(?:me|us)\s+the\s+{_FEW}{_S}\s+(?:from|for|of|to|on)"
    r"\s+your\b"
    # "share the password of your email with me", "paste the recovery phrase for your wallet here"
    rf"|\b{_TO_OWNER}\s+the\s+{_FEW}{_S}\s+(?:from|for|of|to|on)\s+your\s+(?:{_W}\s+){{0,3}}?"
    r"(?:(?:to|with)\s+(?:me|us)\b|here\b|in\s+(?:this|the)\s+chat\b|so\s+(?:that\s+)?(?:i|we)\b)"
    # "send me the code your bank just texted you", "tell us the PIN you got"
    rf"|\b{_TO_OWNER}\s+(?:me|us)\s+the\s+{_FEW}(?:codes?|{_S})\s*(?:that\s+|which\s+)?"
    r"(?:you|your\s+[\w'’-]+|they|it|the\s+bank)\s+(?:just\s+|have\s+|has\s+|'ve\s+)?"
    r"(?:got|get|received|receive|were\s+sent|was\s+sent|texted|sent|emailed|gave|generated|shows?)\b"
    rf"|\b(?:reply|respond|answer|write\s+back|get\s+back\s+to\s+me)\s+with\s+(?:{_W}\s+){{0,2}}?"
    rf"your\s+{_FEW}{_S}"
    rf"|\bwhat(?:'s|’s|\s+is|\s+are|\s+was|\s+were)\s+your\s+{_FEW}{_S}"
    r"|\b(?:i|we)(?:\s+will|'ll|’ll)?\s+(?:just\s+|only\s+|still\s+|first\s+)?"
    r"(?:need|require|want|must\s+have)"
    rf"\s+(?:to\s+(?:know|have|see|get|check|verify)\s+)?your\s+{_FEW}{_S}"
    rf"|\b(?:can|could|would|will)\s+you\s+(?:please\s+|just\s+|quickly\s+)?(?:{_TO_OWNER}|confirm)"
    rf"\s+(?:me\s+|us\s+)?your\s+{_FEW}{_S}"
    # German: "sag mir dein Passwort", "schick uns die TAN", "wie lautet deine PIN"
    r"|\b(?:sag|sage|sagen\s+sie|schick|schicke|schicken\s+sie|sende|senden\s+sie|gib|geben\s+sie"
    r"|nenn|nenne|nennen\s+sie|teil|teile|teilen\s+sie|verrat|verrate|schreib|schreibe)\s+(?:mir|uns)"
    r"\s+(?:[\w-]+\s+){0,2}?(?:dein|deine|deinen|ihr|ihre|ihren|die|den|das)\s+(?:[\w-]+\s+){0,2}?"
    rf"{_S}"
    rf"|\b(?:wie\s+lautet|was\s+ist)\s+(?:dein|deine|ihr|ihre)\s+(?:[\w-]+\s+){{0,2}}?{_S}"
    # French: "donne-moi ton mot de passe", "quel est votre code PIN"
    r"|\b(?:donne|donnez|envoie|envoyez|dis|dites|communique|communiquez|indique|indiquez"
    r"|transmets|transmettez|partage|partagez|écris|ecris|écrivez|ecrivez)[- ](?:moi|nous)\s+"
    rf"(?:[\w-]+\s+){{0,2}}?(?:ton|ta|tes|votre|vos|le|la|les)\s+(?:[\w-]+\s+){{0,2}}?{_S}"
    rf"|\bquel(?:le)?\s+est\s+(?:ton|ta|votre)\s+(?:[\w-]+\s+){{0,2}}?{_S}"
    # Spanish: "dime tu contraseña", "envíame el código que te llegó"
    r"|\b(?:dame|deme|dime|d(?:í|i)game|env(?:í|i)ame|env(?:í|i)enos|m(?:á|a)ndame|p(?:á|a)same"
    r"|comp(?:á|a)rteme|escr(?:í|i)beme|ind(?:í|i)came|facil(?:í|i)tame)\s+(?:[\w-]+\s+){0,2}?"
    rf"(?:tu|su|tus|sus|el|la)\s+(?:[\w-]+\s+){{0,2}}?{_S}"
    rf"|\bcu(?:á|a)l\s+es\s+(?:tu|su)\s+(?:[\w-]+\s+){{0,2}}?{_S}"
    # Italian: "dimmi la tua password", "mandami il codice che ti è arrivato"
    r"|\b(?:dammi|mi\s+dai|dimmi|mandami|inviami|scrivimi|passami|comunicami|dicci|mandaci)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:la\s+tua|il\s+tuo|i\s+tuoi|le\s+tue|la\s+sua|il\s+suo|il|la)\s+"
    rf"(?:[\w-]+\s+){{0,2}}?{_S}"
    rf"|\bqual\s*(?:è|e|'è)\s+(?:la\s+tua|il\s+tuo)\s+(?:[\w-]+\s+){{0,2}}?{_S}"
    # Dutch: "geef me je wachtwoord", "stuur me de code die je kreeg"
    r"|\b(?:geef|stuur|vertel|zeg|deel|mail|app|noem)\s+(?:me|mij|ons)\s+(?:[\w-]+\s+){0,2}?"
    rf"(?:je|jouw|uw|de)\s+(?:[\w-]+\s+){{0,2}}?{_S}"
    rf"|\bwat\s+is\s+(?:je|jouw|uw)\s+(?:[\w-]+\s+){{0,2}}?{_S}"
    # Portuguese: "me diga a sua senha", "envie-me o código"
    r"|\b(?:me\s+)?(?:d(?:á|a)|diga|diz|envie|envia|mande|manda|passe|passa|informe|informa)"
    r"(?:-me)?\s+(?:[\w-]+\s+){0,2}?(?:a\s+sua|o\s+seu|a\s+tua|o\s+teu|sua|seu|tua|teu|a|o)\s+"
    rf"(?:[\w-]+\s+){{0,2}}?{_S}"
    r"|\bqual\s+(?:é|e)\s+(?:a\s+sua|a\s+tua|o\s+seu|o\s+teu|sua|tua|seu|teu)\s+(?:[\w-]+\s+){0,2}?"
    rf"{_S}"
)


@functools.cache
def _secrets() -> re.Pattern[str]:
    """The secrets' words, compiled the first time a reply is read."""
    return re.compile(_SECRETS)


@functools.cache
def _asks() -> re.Pattern[str]:
    """The asks, compiled the first time a reply names a secret (most chats never do)."""
    return re.compile(_ASKS)


# A negation in the ask's own clause, before it or inside it: advice, not an ask.
_NEGATION = re.compile(
    r"\b(?:never|don'?t|don’t|do\s+not|not|no\s+one|nobody|no\s+need|nie|niemals|nicht|niemandem"
    r"|keine?n?|jamais|ne|n'|no|nunca|nadie|mai|non|nessuno|nooit|niet|niemand|geen|não|nao|ninguém)\b"
)
_CLAUSE_END = re.compile(r"[.!?;,:\n—–]")


def asks_for_secret(text: str) -> bool:
    """True when `text` asks its reader for a password, PIN, one-time code, card number or the
    like, in one of the languages above (the module's docstring)."""
    flat = unicodedata.normalize("NFKC", text).lower().replace(_MARK, " ")
    marked = _secrets().sub(_MARK, flat)
    if _MARK not in marked and "code" not in marked:  # "send me the code you got"
        return False
    for match in _asks().finditer(marked):
        before = marked[: match.start()]
        ends = [m.end() for m in _CLAUSE_END.finditer(before)]
        clause = before[ends[-1] if ends else 0 :] + match.group(0)
        if not _NEGATION.search(clause):
            return True
    return False
