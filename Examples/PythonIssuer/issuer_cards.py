"""issuer_cards: what the Python issuer's app and its non-UI extension share through their
App Group. Shipped inside PythonIssuer.app and PyNonUIExt.appex (each bundle has its own
copy, as one file in two Xcode targets would be).

The app writes `<container>/cards.json` when the user logs in:

    {"format": 1,
     "requiresAuthentication": true,
     "cards": [{"primaryAccountIdentifier": "PY-ACCT-...", "primaryAccountSuffix": "7421",
                "cardholderName": "...", "paymentNetwork": "Visa", "expiration": "08/29",
                "encryptionScheme": "ECC_V2", "label": "...", "localizedDescription": "...",
                "art": "indigo"}, ...]}

`requiresAuthentication` is the flag the Swift sample keeps as
ShouldRequireAuthenticationForAppleWallet; `art` names the palette PyNonUIExt draws the
card with.
"""
import json
import os

APP_GROUP_ID = "group.com.example.pythonissuer"
CARDS_FILE = "cards.json"
FORMAT = 1
ENCRYPTION_SCHEMES = ("ECC_V2", "RSA_V2")
CARD_FIELDS = ("primaryAccountIdentifier", "primaryAccountSuffix", "cardholderName", "paymentNetwork",
               "expiration", "encryptionScheme", "label", "localizedDescription", "art")


def _log(message):
    """One whole line to stderr (the host's log of the bundle's process)."""
    try:
        os.write(2, (message + "\n").encode("utf-8", "replace"))
    except OSError:
        pass


def cards_path(container):
    return os.path.join(container, CARDS_FILE)


def write_login(container, cards, requires_authentication):
    """Writes cards.json atomically (temporary file, fsync, rename), as the app does at login.
    An extension reading at the same moment sees the old file or the new one, never half."""
    os.makedirs(container, exist_ok=True)
    document = {"format": FORMAT, "requiresAuthentication": bool(requires_authentication), "cards": list(cards)}
    data = json.dumps(document, indent=2, sort_keys=True).encode("utf-8") + b"\n"
    path = cards_path(container)
    temporary = f"{path}.tmp-{os.getpid()}"
    try:
        with open(temporary, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)
    directory = os.open(container, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    return path


class Login:
    """What the app left in the App Group: the cards by account id, and the auth flag."""

    def __init__(self, cards=None, requires_authentication=False):
        self.cards = cards or {}
        self.requires_authentication = requires_authentication


def read_login(container, who):
    """The login the app wrote, or an empty one (with a line in the log) when there is none
    yet or the file cannot be used. `who` prefixes the log lines."""
    if container is None:
        _log(f"{who}: no container for {APP_GROUP_ID}; is the extension a member of the App Group?")
        return Login()
    path = cards_path(container)
    try:
        with open(path, "rb") as file:
            document = json.loads(file.read().decode("utf-8"))
    except FileNotFoundError:
        _log(f"{who}: no {CARDS_FILE} in the App Group; has the user logged in to the app?")
        return Login()
    except (OSError, ValueError) as error:
        _log(f"{who}: {path} could not be read: {error}")
        return Login()
    if not isinstance(document, dict) or not isinstance(document.get("cards"), list):
        _log(f"{who}: {path} has no \"cards\" array; ignored")
        return Login()
    cards = {}
    for index, card in enumerate(document["cards"]):
        problem = card_problem(card)
        if problem:
            _log(f"{who}: {CARDS_FILE} cards[{index}] skipped: {problem}")
            continue
        cards[card["primaryAccountIdentifier"]] = card
    return Login(cards, document.get("requiresAuthentication") is True)


def card_problem(card):
    """Why a card from the file cannot be used, or None."""
    if not isinstance(card, dict):
        return "not an object"
    for field in CARD_FIELDS:
        if not isinstance(card.get(field), str) or (field != "art" and not card[field]):
            return f"{field} is missing or not a string"
    if card["encryptionScheme"] not in ENCRYPTION_SCHEMES:
        return f"unknown encryptionScheme {card['encryptionScheme']!r}"
    return None
