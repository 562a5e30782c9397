// OpenSSL's libcrypto for Swift (Debian's libssl-dev for the headers; libssl3 at run time;
// scripts/install-dependencies installs both). Not linked: libcrypto.so.3 is loaded with dlopen on
// the first call of any OpenSSL function (libcrypto_loader.c), so a process that does no
// provisioning crypto (an idle `wallet-host serve`) never maps it. Used only by the Wallet logic, the
// CLI and the sample issuer's stand-in backend: never by the host runtime, the wire module or the SDK.
// Swift cannot call OpenSSL's variadic key-generation functions or build OSSL_PARAM arrays
// comfortably, so these small wrappers do it; everything else is called from Swift directly. Every
// function returns NULL or 0 on failure, and so does every OpenSSL function when libcrypto.so.3
// cannot be loaded (wh_libcrypto_load_error says why).
#ifndef CLIBCRYPTO_H
#define CLIBCRYPTO_H

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdlib.h>
#include <string.h>

/// NULL when libcrypto.so.3 is loaded (loading it on the first call), else why it cannot be: a
/// sentence naming the library and how to install it.
const char *_Nullable wh_libcrypto_load_error(void);

/// A new key pair of `type` ("EC", "RSA") with `params`: what EVP_PKEY_Q_keygen does, without its
/// variadic arguments (which the loader could not forward).
static inline EVP_PKEY *_Nullable wh_generate_key(const char *_Nonnull type, const OSSL_PARAM *_Nonnull params) {
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
    EVP_PKEY *key = NULL;
    if (context == NULL || EVP_PKEY_keygen_init(context) <= 0 || EVP_PKEY_CTX_set_params(context, params) <= 0
        || EVP_PKEY_generate(context, &key) <= 0) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    return key;
}

/// A new P-256 key pair.
static inline EVP_PKEY *_Nullable wh_ec_p256_generate(void) {
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"P-256", 0);
    params[1] = OSSL_PARAM_construct_end();
    return wh_generate_key("EC", params);
}

/// A new RSA key pair of `bits` bits.
static inline EVP_PKEY *_Nullable wh_rsa_generate(unsigned int bits) {
    size_t size = bits;
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_size_t(OSSL_PKEY_PARAM_RSA_BITS, &size);
    params[1] = OSSL_PARAM_construct_end();
    return wh_generate_key("RSA", params);
}

/// A P-256 public key from its SEC 1 encoding: 65 bytes uncompressed (04 x y) or 33 compressed
/// (02/03 x). NULL when the bytes are not a point on the curve.
static inline EVP_PKEY *_Nullable wh_ec_p256_public_key(const unsigned char *_Nonnull bytes, size_t count) {
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    EVP_PKEY *key = NULL;
    OSSL_PARAM params[3];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"prime256v1", 0);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)bytes, count);
    params[2] = OSSL_PARAM_construct_end();
    if (context != NULL && EVP_PKEY_fromdata_init(context) > 0) {
        if (EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) <= 0) key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    return key;
}

/// The public point of an EC key, SEC 1 encoded uncompressed (65 bytes for P-256), into `out`.
/// Returns the length written, 0 on failure.
static inline size_t wh_ec_public_octets(EVP_PKEY *_Nonnull key, unsigned char *_Nonnull out, size_t room) {
    size_t length = 0;
    if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out, room, &length) <= 0) return 0;
    return length;
}

/// ECDH: the shared secret (the x coordinate, 32 bytes for P-256) of `key` and `peer` into `out`.
/// Returns its length, 0 on failure.
static inline size_t wh_ecdh(EVP_PKEY *_Nonnull key, EVP_PKEY *_Nonnull peer, unsigned char *_Nonnull out, size_t room) {
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new(key, NULL);
    size_t length = room;
    int ok = context != NULL && EVP_PKEY_derive_init(context) > 0 && EVP_PKEY_derive_set_peer(context, peer) > 0
        && EVP_PKEY_derive(context, out, &length) > 0;
    EVP_PKEY_CTX_free(context);
    return ok ? length : 0;
}

/// AES-256-GCM with a 16-byte tag. `encrypt` 1 encrypts `input` into `output` and writes the tag
/// into `tag`; 0 decrypts and checks `tag`. Returns 1 on success, 0 when the tag does not verify
/// (or on any other failure). `output` has room for `count` bytes.
static inline int wh_aes256gcm(int encrypt, const unsigned char *_Nonnull key, const unsigned char *_Nonnull iv, int ivLength,
                               const unsigned char *_Nullable input, int count, unsigned char *_Nonnull output,
                               unsigned char *_Nonnull tag) {
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    int length = 0;
    int ok = context != NULL
        && EVP_CipherInit_ex(context, EVP_aes_256_gcm(), NULL, NULL, NULL, encrypt) == 1
        && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, ivLength, NULL) == 1
        && EVP_CipherInit_ex(context, NULL, NULL, key, iv, encrypt) == 1
        && (count == 0 || EVP_CipherUpdate(context, output, &length, input, count) == 1)
        && (encrypt || EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, tag) == 1)
        && EVP_CipherFinal_ex(context, output + length, &length) == 1
        && (!encrypt || EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1);
    EVP_CIPHER_CTX_free(context);
    return ok ? 1 : 0;
}

/// SHA-256 of `count` bytes into `digest` (32 bytes). Returns 1 on success.
static inline int wh_sha256(const void *_Nullable bytes, size_t count, unsigned char *_Nonnull digest) {
    unsigned int length = 0;
    return EVP_Digest(bytes, count, digest, &length, EVP_sha256(), NULL);
}

/// An ECDSA or RSA signature (SHA-256) of `count` bytes with `key`, DER encoded, into `out`
/// (room for 512 bytes). Returns its length, 0 on failure.
static inline size_t wh_sign_sha256(EVP_PKEY *_Nonnull key, const unsigned char *_Nonnull bytes, size_t count,
                                    unsigned char *_Nonnull out, size_t room) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    size_t length = room;
    int ok = context != NULL && EVP_DigestSignInit(context, NULL, EVP_sha256(), NULL, key) == 1
        && EVP_DigestSign(context, out, &length, bytes, count) == 1;
    EVP_MD_CTX_free(context);
    return ok ? length : 0;
}

/// Whether `signature` is `key`'s SHA-256 signature of `count` bytes: 1 yes, 0 no.
static inline int wh_verify_sha256(EVP_PKEY *_Nonnull key, const unsigned char *_Nonnull bytes, size_t count,
                                   const unsigned char *_Nonnull signature, size_t signatureLength) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    int ok = context != NULL && EVP_DigestVerifyInit(context, NULL, EVP_sha256(), NULL, key) == 1
        && EVP_DigestVerify(context, signature, signatureLength, bytes, count) == 1;
    EVP_MD_CTX_free(context);
    return ok ? 1 : 0;
}

/// The bytes of a memory BIO as a malloc'ed copy (free it with free); its length in `count`.
static inline unsigned char *_Nullable wh_bio_copy(BIO *_Nonnull bio, size_t *_Nonnull count) {
    char *data = NULL;
    long length = BIO_get_mem_data(bio, &data);
    if (length <= 0 || data == NULL) return NULL;
    unsigned char *copy = malloc((size_t)length);
    if (copy != NULL) memcpy(copy, data, (size_t)length);
    *count = (size_t)length;
    return copy;
}

/// The private key as unencrypted PKCS #8 PEM ("BEGIN PRIVATE KEY"), malloc'ed (free it).
static inline unsigned char *_Nullable wh_private_key_pem(EVP_PKEY *_Nonnull key, size_t *_Nonnull count) {
    BIO *bio = BIO_new(BIO_s_mem());
    unsigned char *copy = NULL;
    if (bio != NULL && PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL) == 1) copy = wh_bio_copy(bio, count);
    BIO_free(bio);
    return copy;
}

/// A private key from PEM (PKCS #8 or the traditional forms).
static inline EVP_PKEY *_Nullable wh_private_key_from_pem(const void *_Nonnull bytes, int count) {
    BIO *bio = BIO_new_mem_buf(bytes, count);
    EVP_PKEY *key = bio != NULL ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) : NULL;
    BIO_free(bio);
    return key;
}

/// What a certificate is for, in ``wh_x509_make``.
enum wh_certificate_role { WH_CERTIFICATE_ROOT = 0, WH_CERTIFICATE_INTERMEDIATE = 1, WH_CERTIFICATE_LEAF = 2 };

static inline int wh_x509_add_extension(X509 *_Nonnull certificate, X509V3_CTX *_Nonnull context, int nid, const char *_Nonnull value) {
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, context, nid, value);
    int ok = extension != NULL && X509_add_ext(certificate, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return ok;
}

/// A DER X.509 v3 certificate (free it with wh_openssl_free), for `subjectKey`'s public key, named
/// `commonName`, signed with `issuerKey` (SHA-256) by `issuer` (NULL: self-signed), valid from
/// a day ago for `days` days. Roots and intermediates are CAs (basic constraints, keyCertSign);
/// a leaf carries key usage `leafKeyUsage` (critical) and, when `markerOID` is not NULL, that
/// extension with a DER NULL value.
static inline unsigned char *_Nullable wh_x509_make(EVP_PKEY *_Nonnull subjectKey, const char *_Nonnull commonName,
                                                    X509 *_Nullable issuer, EVP_PKEY *_Nonnull issuerKey, long serial, int days,
                                                    int role, const char *_Nullable leafKeyUsage, const char *_Nullable markerOID,
                                                    int *_Nonnull count) {
    X509 *certificate = X509_new();
    unsigned char *der = NULL;
    int ok = certificate != NULL && X509_set_version(certificate, 2) == 1
        && ASN1_INTEGER_set(X509_get_serialNumber(certificate), serial) == 1
        && X509_gmtime_adj(X509_getm_notBefore(certificate), -86400) != NULL
        && X509_gmtime_adj(X509_getm_notAfter(certificate), (long)days * 86400) != NULL
        && X509_set_pubkey(certificate, subjectKey) == 1;
    X509_NAME *name = X509_get_subject_name(certificate);
    ok = ok && X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, (const unsigned char *)"wallet-host test PKI", -1, -1, 0) == 1
        && X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)commonName, -1, -1, 0) == 1
        && X509_set_issuer_name(certificate, issuer != NULL ? X509_get_subject_name(issuer) : name) == 1;
    X509V3_CTX context;
    X509V3_set_ctx(&context, issuer != NULL ? issuer : certificate, certificate, NULL, NULL, 0);
    if (ok && role != WH_CERTIFICATE_LEAF) {
        ok = wh_x509_add_extension(certificate, &context, NID_basic_constraints,
                                   role == WH_CERTIFICATE_ROOT ? "critical,CA:TRUE" : "critical,CA:TRUE,pathlen:0")
            && wh_x509_add_extension(certificate, &context, NID_key_usage, "critical,keyCertSign,cRLSign");
    } else if (ok) {
        ok = wh_x509_add_extension(certificate, &context, NID_basic_constraints, "critical,CA:FALSE")
            && (leafKeyUsage == NULL || wh_x509_add_extension(certificate, &context, NID_key_usage, leafKeyUsage));
        if (ok && markerOID != NULL) {
            ASN1_OBJECT *object = OBJ_txt2obj(markerOID, 1);
            ASN1_OCTET_STRING *value = ASN1_OCTET_STRING_new();
            static const unsigned char derNull[2] = {0x05, 0x00};
            X509_EXTENSION *extension = NULL;
            ok = object != NULL && value != NULL && ASN1_OCTET_STRING_set(value, derNull, 2) == 1
                && (extension = X509_EXTENSION_create_by_OBJ(NULL, object, 0, value)) != NULL
                && X509_add_ext(certificate, extension, -1) == 1;
            X509_EXTENSION_free(extension);
            ASN1_OCTET_STRING_free(value);
            ASN1_OBJECT_free(object);
        }
    }
    ok = ok && wh_x509_add_extension(certificate, &context, NID_subject_key_identifier, "hash")
        && (issuer == NULL || wh_x509_add_extension(certificate, &context, NID_authority_key_identifier, "keyid:always"))
        && X509_sign(certificate, issuerKey, EVP_sha256()) > 0;
    if (ok) {
        int length = i2d_X509(certificate, &der);
        if (length <= 0) der = NULL;
        *count = length;
    }
    X509_free(certificate);
    return der;
}

/// A certificate from DER (free it with X509_free).
static inline X509 *_Nullable wh_x509_from_der(const unsigned char *_Nonnull bytes, long count) {
    const unsigned char *cursor = bytes;
    return d2i_X509(NULL, &cursor, count);
}

/// Frees what OpenSSL allocated (OPENSSL_free is a macro).
static inline void wh_openssl_free(void *_Nullable pointer) {
    OPENSSL_free(pointer);
}

#endif
