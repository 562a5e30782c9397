"""ECC_V2 encryption for an issuer's server, written from the public description alone, with
Python's standard library only (no OpenSSL): P-256, SHA-256, AES-256-GCM.

    key = SHA-256(00000001 || Z || 0D || "id-aes256-GCM" || "Apple" || ephemeralPublicKey)
    encryptedPassData = AES-256-GCM(key, IV = 12 zero bytes, JSON payload) || 16-byte tag

Z is the x coordinate of ECDH between a fresh ephemeral P-256 key and the leaf certificate's
key (the first certificate Wallet sends). The Python issuer's non-UI extension uses it, and the
host's tests use it as an independent backend: `variant` makes each of the usual mistakes
(docs/PROVISIONING.md), by the names `wallet-host` gives them.

As a command, for a challenge written by `wallet-host provisioning challenge --out DIR`:

    python3 issuer_crypto.py DIR PAN EXPIRATION NAME [VARIANT]   # prints the request JSON

Not constant time and not for production: a reference, small enough to read.
"""
import base64
import hashlib
import json
import os
import secrets
import sys

# P-256 (SEC 2 / FIPS 186-4).
P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
A = P - 3
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
G = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
     0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)

VARIANTS = ("correct", "x963-kdf", "kdf-without-apple", "kdf-ephemeral-key-first", "kdf-apple-first",
            "kdf-without-length-byte", "16-byte-iv", "intermediate-key", "compressed-ephemeral-key-in-kdf",
            "hex-ephemeral-key-in-kdf", "base64-ephemeral-key-in-kdf", "hex-pass-data", "base64-pass-data",
            "hex-ephemeral-key", "base64-ephemeral-key")


def _add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2 and (y1 + y2) % P == 0:
        return None
    if p1 == p2:
        slope = (3 * x1 * x1 + A) * pow(2 * y1, -1, P) % P
    else:
        slope = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (slope * slope - x1 - x2) % P
    return x3, (slope * (x1 - x3) - y1) % P


def _multiply(k, point):
    result = None
    for bit in bin(k)[2:]:
        result = _add(result, result)
        if bit == "1":
            result = _add(result, point)
    return result


def _encode(point, compressed=False):
    x, y = point
    if compressed:
        return bytes([2 + (y & 1)]) + x.to_bytes(32, "big")
    return b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big")


def _der_children(data):
    """The (tag, content) pairs of a DER SEQUENCE's content."""
    children, i = [], 0
    while i < len(data):
        tag, length = data[i], data[i + 1]
        i += 2
        if length & 0x80:
            count = length & 0x7F
            length = int.from_bytes(data[i:i + count], "big")
            i += count
        children.append((tag, data[i:i + length]))
        i += length
    return children


def leaf_public_key(certificate):
    """The P-256 public point of a DER certificate's SubjectPublicKeyInfo."""
    _, body = _der_children(certificate)[0]
    _, tbs = _der_children(body)[0]
    fields = _der_children(tbs)
    if fields[0][0] == 0xA0:  # explicit version
        fields = fields[1:]
    _, spki = fields[5]
    _, bits = _der_children(spki)[1]
    point = bits[1:]
    if len(point) != 65 or point[0] != 4:
        raise ValueError("the certificate's key is not an uncompressed P-256 point (is the scheme RSA_V2?)")
    return int.from_bytes(point[1:33], "big"), int.from_bytes(point[33:], "big")


# AES (FIPS 197), the S-box computed rather than typed.
def _sbox():
    box = [0] * 256
    p = q = 1
    while True:
        p = p ^ ((p << 1) & 0xFF) ^ (0x1B if p & 0x80 else 0)
        q ^= q << 1
        q ^= q << 2
        q ^= q << 4
        q &= 0xFF
        if q & 0x80:
            q ^= 0x09
        rotl = lambda v, s: ((v << s) | (v >> (8 - s))) & 0xFF
        box[p] = q ^ rotl(q, 1) ^ rotl(q, 2) ^ rotl(q, 3) ^ rotl(q, 4) ^ 0x63
        if p == 1:
            break
    box[0] = 0x63
    return box


SBOX = _sbox()


def _xtime(v):
    return ((v << 1) ^ 0x1B) & 0xFF if v & 0x80 else v << 1


def _expand_key(key):
    words = [list(key[i:i + 4]) for i in range(0, 32, 4)]
    rcon = 1
    for i in range(8, 60):
        word = list(words[i - 1])
        if i % 8 == 0:
            word = [SBOX[b] for b in word[1:] + word[:1]]
            word[0] ^= rcon
            rcon = _xtime(rcon)
        elif i % 8 == 4:
            word = [SBOX[b] for b in word]
        words.append([a ^ b for a, b in zip(words[i - 8], word)])
    return [sum(words[r * 4:r * 4 + 4], []) for r in range(15)]


def _encrypt_block(round_keys, block):
    state = [b ^ k for b, k in zip(block, round_keys[0])]
    for r in range(1, 15):
        state = [SBOX[b] for b in state]
        state = [state[(i + 4 * (i % 4)) % 16] for i in range(16)]  # ShiftRows (column-major)
        if r != 14:
            mixed = []
            for c in range(4):
                a = state[4 * c:4 * c + 4]
                t = a[0] ^ a[1] ^ a[2] ^ a[3]
                mixed += [a[i] ^ t ^ _xtime(a[i] ^ a[(i + 1) % 4]) for i in range(4)]
            state = mixed
        state = [b ^ k for b, k in zip(state, round_keys[r])]
    return bytes(state)


def _gf_multiply(x, y):
    z, v = 0, y
    for i in range(127, -1, -1):
        if (x >> i) & 1:
            z ^= v
        v = (v >> 1) ^ (0xE1 << 120) if v & 1 else v >> 1
    return z


def _ghash(h, data):
    y = 0
    for i in range(0, len(data), 16):
        block = data[i:i + 16].ljust(16, b"\0")
        y = _gf_multiply(y ^ int.from_bytes(block, "big"), h)
    return y


def aes256_gcm_seal(key, iv, plaintext):
    """AES-256-GCM with no associated data: the ciphertext, then the 16-byte tag."""
    round_keys = _expand_key(key)
    h = int.from_bytes(_encrypt_block(round_keys, bytes(16)), "big")
    if len(iv) == 12:
        j0 = int.from_bytes(iv + b"\0\0\0\1", "big")
    else:
        padded = iv + bytes(-len(iv) % 16) + bytes(8) + (8 * len(iv)).to_bytes(8, "big")
        j0 = _ghash(h, padded)
    ciphertext = bytearray()
    for i in range(0, len(plaintext), 16):
        counter = (j0 & ~0xFFFFFFFF) | ((j0 + 1 + i // 16) & 0xFFFFFFFF)
        stream = _encrypt_block(round_keys, counter.to_bytes(16, "big"))
        ciphertext += bytes(a ^ b for a, b in zip(plaintext[i:i + 16], stream))
    lengths = bytes(8) + (8 * len(ciphertext)).to_bytes(8, "big")
    s = _ghash(h, bytes(ciphertext) + bytes(-len(ciphertext) % 16) + lengths)
    tag = bytes(a ^ b for a, b in zip(_encrypt_block(round_keys, j0.to_bytes(16, "big")), s.to_bytes(16, "big")))
    return bytes(ciphertext) + tag


def kdf(variant, z, ephemeral):
    """The payload key: the single-step KDF of the recipe, or the variant's mistake."""
    counter, length, algorithm, party = b"\0\0\0\1", b"\x0d", b"id-aes256-GCM", b"Apple"
    if variant == "x963-kdf":
        return hashlib.sha256(z + counter + length + algorithm + party + ephemeral).digest()
    if variant == "kdf-without-apple":
        return hashlib.sha256(counter + z + length + algorithm + ephemeral).digest()
    if variant == "kdf-ephemeral-key-first":
        return hashlib.sha256(counter + z + ephemeral + length + algorithm + party).digest()
    if variant == "kdf-apple-first":
        return hashlib.sha256(counter + z + party + length + algorithm + ephemeral).digest()
    if variant == "kdf-without-length-byte":
        return hashlib.sha256(counter + z + algorithm + party + ephemeral).digest()
    return hashlib.sha256(counter + z + length + algorithm + party + ephemeral).digest()


def encrypt(payload, certificate_chain, variant="correct", ephemeral_private=None):
    """The ECC_V2 request fields (bytes) for `payload` (a dict), encrypted for the chain's leaf
    (or, variant "intermediate-key", for the second certificate)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; one of {', '.join(VARIANTS)}")
    recipient = certificate_chain[1 if variant == "intermediate-key" else 0]
    secret = ephemeral_private or (secrets.randbelow(N - 1) + 1)
    ephemeral_point = _multiply(secret, G)
    ephemeral = _encode(ephemeral_point)
    z = _multiply(secret, leaf_public_key(recipient))[0].to_bytes(32, "big")
    in_kdf = {"compressed-ephemeral-key-in-kdf": _encode(ephemeral_point, compressed=True),
              "hex-ephemeral-key-in-kdf": ephemeral.hex().encode(),
              "base64-ephemeral-key-in-kdf": base64.b64encode(ephemeral)}.get(variant, ephemeral)
    key = kdf(variant, z, in_kdf)
    iv = bytes(16 if variant == "16-byte-iv" else 12)
    sealed = aes256_gcm_seal(key, iv, json.dumps(payload).encode())
    if variant == "hex-pass-data":
        sealed = sealed.hex().encode()
    elif variant == "base64-pass-data":
        sealed = base64.b64encode(sealed)
    if variant == "hex-ephemeral-key":
        ephemeral = ephemeral.hex().encode()
    elif variant == "base64-ephemeral-key":
        ephemeral = base64.b64encode(ephemeral)
    return {"encryptedPassData": sealed, "ephemeralPublicKey": ephemeral, "activationData": secrets.token_bytes(16)}


def payload(pan, expiration, name, nonce, nonce_signature):
    """The JSON Wallet's servers expect inside encryptedPassData (nonce and signature as bytes)."""
    return {"primaryAccountNumber": pan, "expiration": expiration, "name": name,
            "nonce": nonce.hex(), "nonceSignature": nonce_signature.hex()}


def main(argv):
    if len(argv) not in (5, 6):
        sys.stderr.write(__doc__.split("As a command")[1])
        return 2
    directory, pan, expiration, name = argv[1:5]
    variant = argv[5] if len(argv) == 6 else "correct"
    with open(os.path.join(directory, "challenge.json")) as file:
        challenge = json.load(file)
    chain = [base64.b64decode(certificate) for certificate in challenge["certificateChain"]]
    nonce = base64.b64decode(challenge["nonce"])
    signature = base64.b64decode(challenge["nonceSignature"])
    request = encrypt(payload(pan, expiration, name, nonce, signature), chain, variant)
    print(json.dumps({field: base64.b64encode(value).decode() for field, value in request.items()}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
