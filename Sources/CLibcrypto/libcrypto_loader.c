// libcrypto.so.3 loaded on first use. The executables do not link libcrypto: an idle daemon
// would map ~1.5 MB of it for nothing. Instead this file defines each OpenSSL function that the
// Swift code and the wrappers in clibcrypto.h call, under OpenSSL's own name and prototype (the
// compiler checks both against OpenSSL's headers); the first call of any of them loads the library
// once (dlopen, RTLD_LOCAL) and resolves them all, and each then forwards to the library's own.
//
// The definitions are hidden: an executable that exported `EVP_PKEY_free` would interpose it on
// libcrypto's internal calls. When the library cannot be loaded every function fails as OpenSSL's
// do (NULL, 0, nothing), and wh_libcrypto_load_error says why, for the Swift side's error.
#include "clibcrypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/// The library, by its soname: OpenSSL 3's ABI (Debian's libssl3).
#define WH_LIBCRYPTO_SONAME "libcrypto.so.3"

/// Every OpenSSL function called, as FUNCTION(result type, name, parameters, arguments) or, for
/// those returning nothing, PROCEDURE(name, parameters, arguments). Macros call what they expand to:
/// BIO_get_mem_data is BIO_ctrl, OPENSSL_free is CRYPTO_free.
#define WH_LIBCRYPTO_FUNCTIONS(FUNCTION, PROCEDURE)                                                                   \
    /* Errors and randomness (CryptoKey.swift) */                                                                      \
    FUNCTION(unsigned long, ERR_get_error, (void), ())                                                                 \
    PROCEDURE(ERR_error_string_n, (unsigned long e, char *buf, size_t len), (e, buf, len))                              \
    PROCEDURE(ERR_clear_error, (void), ())                                                                             \
    FUNCTION(int, RAND_bytes, (unsigned char *buf, int num), (buf, num))                                                \
    PROCEDURE(CRYPTO_free, (void *ptr, const char *file, int line), (ptr, file, line))                                  \
    /* Keys */                                                                                                         \
    FUNCTION(EVP_PKEY_CTX *, EVP_PKEY_CTX_new_from_name, (OSSL_LIB_CTX *libctx, const char *name, const char *propq),   \
             (libctx, name, propq))                                                                                    \
    FUNCTION(EVP_PKEY_CTX *, EVP_PKEY_CTX_new, (EVP_PKEY *pkey, ENGINE *e), (pkey, e))                                  \
    PROCEDURE(EVP_PKEY_CTX_free, (EVP_PKEY_CTX *ctx), (ctx))                                                            \
    FUNCTION(int, EVP_PKEY_keygen_init, (EVP_PKEY_CTX *ctx), (ctx))                                                     \
    FUNCTION(int, EVP_PKEY_CTX_set_params, (EVP_PKEY_CTX *ctx, const OSSL_PARAM *params), (ctx, params))                \
    FUNCTION(int, EVP_PKEY_generate, (EVP_PKEY_CTX *ctx, EVP_PKEY **ppkey), (ctx, ppkey))                               \
    FUNCTION(int, EVP_PKEY_fromdata_init, (EVP_PKEY_CTX *ctx), (ctx))                                                   \
    FUNCTION(int, EVP_PKEY_fromdata, (EVP_PKEY_CTX *ctx, EVP_PKEY **ppkey, int selection, OSSL_PARAM param[]),          \
             (ctx, ppkey, selection, param))                                                                           \
    FUNCTION(int, EVP_PKEY_get_octet_string_param,                                                                     \
             (const EVP_PKEY *pkey, const char *key_name, unsigned char *buf, size_t max_buf_sz, size_t *out_sz),       \
             (pkey, key_name, buf, max_buf_sz, out_sz))                                                                \
    FUNCTION(int, EVP_PKEY_get_base_id, (const EVP_PKEY *pkey), (pkey))                                                 \
    PROCEDURE(EVP_PKEY_free, (EVP_PKEY *pkey), (pkey))                                                                  \
    FUNCTION(int, EVP_PKEY_derive_init, (EVP_PKEY_CTX *ctx), (ctx))                                                     \
    FUNCTION(int, EVP_PKEY_derive_set_peer, (EVP_PKEY_CTX *ctx, EVP_PKEY *peer), (ctx, peer))                           \
    FUNCTION(int, EVP_PKEY_derive, (EVP_PKEY_CTX *ctx, unsigned char *key, size_t *keylen), (ctx, key, keylen))         \
    FUNCTION(OSSL_PARAM, OSSL_PARAM_construct_utf8_string, (const char *key, char *buf, size_t bsize), (key, buf, bsize)) \
    FUNCTION(OSSL_PARAM, OSSL_PARAM_construct_octet_string, (const char *key, void *buf, size_t bsize),                 \
             (key, buf, bsize))                                                                                        \
    FUNCTION(OSSL_PARAM, OSSL_PARAM_construct_size_t, (const char *key, size_t *buf), (key, buf))                       \
    FUNCTION(OSSL_PARAM, OSSL_PARAM_construct_end, (void), ())                                                          \
    /* Ciphers, digests, signatures */                                                                                 \
    FUNCTION(EVP_CIPHER_CTX *, EVP_CIPHER_CTX_new, (void), ())                                                          \
    PROCEDURE(EVP_CIPHER_CTX_free, (EVP_CIPHER_CTX *c), (c))                                                            \
    FUNCTION(int, EVP_CIPHER_CTX_ctrl, (EVP_CIPHER_CTX *ctx, int type, int arg, void *ptr), (ctx, type, arg, ptr))      \
    FUNCTION(int, EVP_CipherInit_ex,                                                                                   \
             (EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher, ENGINE *impl, const unsigned char *key,                    \
              const unsigned char *iv, int enc),                                                                       \
             (ctx, cipher, impl, key, iv, enc))                                                                        \
    FUNCTION(int, EVP_CipherUpdate, (EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl, const unsigned char *in, int inl), \
             (ctx, out, outl, in, inl))                                                                                \
    FUNCTION(int, EVP_CipherFinal_ex, (EVP_CIPHER_CTX *ctx, unsigned char *outm, int *outl), (ctx, outm, outl))         \
    FUNCTION(const EVP_CIPHER *, EVP_aes_256_gcm, (void), ())                                                           \
    FUNCTION(const EVP_MD *, EVP_sha256, (void), ())                                                                    \
    FUNCTION(int, EVP_Digest,                                                                                          \
             (const void *data, size_t count, unsigned char *md, unsigned int *size, const EVP_MD *type, ENGINE *impl), \
             (data, count, md, size, type, impl))                                                                      \
    FUNCTION(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ())                                                                  \
    PROCEDURE(EVP_MD_CTX_free, (EVP_MD_CTX *ctx), (ctx))                                                                \
    FUNCTION(int, EVP_DigestSignInit, (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey), \
             (ctx, pctx, type, e, pkey))                                                                               \
    FUNCTION(int, EVP_DigestSign,                                                                                      \
             (EVP_MD_CTX *ctx, unsigned char *sigret, size_t *siglen, const unsigned char *tbs, size_t tbslen),         \
             (ctx, sigret, siglen, tbs, tbslen))                                                                       \
    FUNCTION(int, EVP_DigestVerifyInit,                                                                                \
             (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey),                     \
             (ctx, pctx, type, e, pkey))                                                                               \
    FUNCTION(int, EVP_DigestVerify,                                                                                    \
             (EVP_MD_CTX *ctx, const unsigned char *sigret, size_t siglen, const unsigned char *tbs, size_t tbslen),     \
             (ctx, sigret, siglen, tbs, tbslen))                                                                       \
    /* PEM through memory BIOs */                                                                                      \
    FUNCTION(const BIO_METHOD *, BIO_s_mem, (void), ())                                                                 \
    FUNCTION(BIO *, BIO_new, (const BIO_METHOD *type), (type))                                                          \
    FUNCTION(BIO *, BIO_new_mem_buf, (const void *buf, int len), (buf, len))                                            \
    FUNCTION(long, BIO_ctrl, (BIO *bp, int cmd, long larg, void *parg), (bp, cmd, larg, parg))                          \
    FUNCTION(int, BIO_free, (BIO *a), (a))                                                                              \
    FUNCTION(int, PEM_write_bio_PrivateKey,                                                                            \
             (BIO *out, const EVP_PKEY *x, const EVP_CIPHER *enc, const unsigned char *kstr, int klen,                  \
              pem_password_cb *cb, void *u),                                                                           \
             (out, x, enc, kstr, klen, cb, u))                                                                         \
    FUNCTION(EVP_PKEY *, PEM_read_bio_PrivateKey, (BIO *out, EVP_PKEY **x, pem_password_cb *cb, void *u), (out, x, cb, u)) \
    /* X.509 certificates (DevicePKI.swift, ECCV2Encryption.swift) */                                                  \
    FUNCTION(X509 *, X509_new, (void), ())                                                                              \
    PROCEDURE(X509_free, (X509 *a), (a))                                                                                \
    FUNCTION(X509 *, d2i_X509, (X509 **a, const unsigned char **in, long len), (a, in, len))                            \
    FUNCTION(int, i2d_X509, (const X509 *a, unsigned char **out), (a, out))                                             \
    FUNCTION(EVP_PKEY *, X509_get0_pubkey, (const X509 *x), (x))                                                        \
    FUNCTION(int, X509_set_version, (X509 *x, long version), (x, version))                                              \
    FUNCTION(ASN1_INTEGER *, X509_get_serialNumber, (X509 *x), (x))                                                     \
    FUNCTION(int, ASN1_INTEGER_set, (ASN1_INTEGER *a, long v), (a, v))                                                  \
    FUNCTION(ASN1_TIME *, X509_getm_notBefore, (const X509 *x), (x))                                                    \
    FUNCTION(ASN1_TIME *, X509_getm_notAfter, (const X509 *x), (x))                                                     \
    FUNCTION(ASN1_TIME *, X509_gmtime_adj, (ASN1_TIME *s, long adj), (s, adj))                                          \
    FUNCTION(int, X509_set_pubkey, (X509 *x, EVP_PKEY *pkey), (x, pkey))                                                \
    FUNCTION(X509_NAME *, X509_get_subject_name, (const X509 *a), (a))                                                  \
    FUNCTION(int, X509_set_issuer_name, (X509 *x, const X509_NAME *name), (x, name))                                    \
    FUNCTION(int, X509_NAME_add_entry_by_txt,                                                                          \
             (X509_NAME *name, const char *field, int type, const unsigned char *bytes, int len, int loc, int set),     \
             (name, field, type, bytes, len, loc, set))                                                                \
    PROCEDURE(X509V3_set_ctx, (X509V3_CTX *ctx, X509 *issuer, X509 *subject, X509_REQ *req, X509_CRL *crl, int flags),  \
              (ctx, issuer, subject, req, crl, flags))                                                                 \
    FUNCTION(X509_EXTENSION *, X509V3_EXT_conf_nid,                                                                    \
             (LHASH_OF(CONF_VALUE) *conf, X509V3_CTX *ctx, int ext_nid, const char *value), (conf, ctx, ext_nid, value)) \
    FUNCTION(X509_EXTENSION *, X509_EXTENSION_create_by_OBJ,                                                           \
             (X509_EXTENSION **ex, const ASN1_OBJECT *obj, int crit, ASN1_OCTET_STRING *data), (ex, obj, crit, data))   \
    FUNCTION(int, X509_add_ext, (X509 *x, X509_EXTENSION *ex, int loc), (x, ex, loc))                                   \
    PROCEDURE(X509_EXTENSION_free, (X509_EXTENSION *a), (a))                                                            \
    FUNCTION(ASN1_OBJECT *, OBJ_txt2obj, (const char *s, int no_name), (s, no_name))                                    \
    PROCEDURE(ASN1_OBJECT_free, (ASN1_OBJECT *a), (a))                                                                  \
    FUNCTION(ASN1_OCTET_STRING *, ASN1_OCTET_STRING_new, (void), ())                                                    \
    FUNCTION(int, ASN1_OCTET_STRING_set, (ASN1_OCTET_STRING *str, const unsigned char *data, int len), (str, data, len)) \
    PROCEDURE(ASN1_OCTET_STRING_free, (ASN1_OCTET_STRING *a), (a))                                                      \
    FUNCTION(int, X509_sign, (X509 *x, EVP_PKEY *pkey, const EVP_MD *md), (x, pkey, md))

/// The library's own functions, typed by OpenSSL's declarations.
static struct {
#define WH_POINTER_TO_FUNCTION(result, name, parameters, arguments) __typeof__(name) *name;
#define WH_POINTER_TO_PROCEDURE(name, parameters, arguments) __typeof__(name) *name;
    WH_LIBCRYPTO_FUNCTIONS(WH_POINTER_TO_FUNCTION, WH_POINTER_TO_PROCEDURE)
} wh_libcrypto;

static pthread_once_t wh_libcrypto_once = PTHREAD_ONCE_INIT;
/// Written once under wh_libcrypto_once, read after it.
static bool wh_libcrypto_loaded;
static char wh_libcrypto_failure[768];

static void wh_libcrypto_load(void) {
    static const char *const install = "install OpenSSL 3 with scripts/install-dependencies (or apt-get install libssl3)";
    void *library = dlopen(WH_LIBCRYPTO_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(wh_libcrypto_failure, sizeof wh_libcrypto_failure, "cannot load %s for the provisioning crypto (%s): %s",
                 WH_LIBCRYPTO_SONAME, reason != NULL ? reason : "no reason given", install);
        return;
    }
#define WH_RESOLVE(name)                                                                                               \
    wh_libcrypto.name = (__typeof__(name) *)dlsym(library, #name);                                                     \
    if (wh_libcrypto.name == NULL) {                                                                                   \
        snprintf(wh_libcrypto_failure, sizeof wh_libcrypto_failure, "%s has no function %s: %s", WH_LIBCRYPTO_SONAME,   \
                 #name, install);                                                                                      \
        return;                                                                                                        \
    }
#define WH_RESOLVE_FUNCTION(result, name, parameters, arguments) WH_RESOLVE(name)
#define WH_RESOLVE_PROCEDURE(name, parameters, arguments) WH_RESOLVE(name)
    WH_LIBCRYPTO_FUNCTIONS(WH_RESOLVE_FUNCTION, WH_RESOLVE_PROCEDURE)
    wh_libcrypto_loaded = true;
}

static inline bool wh_libcrypto_ready(void) {
    pthread_once(&wh_libcrypto_once, wh_libcrypto_load);
    return wh_libcrypto_loaded;
}

const char *_Nullable wh_libcrypto_load_error(void) {
    return wh_libcrypto_ready() ? NULL : wh_libcrypto_failure;
}

#define WH_HIDDEN __attribute__((visibility("hidden")))

#define WH_FORWARD_FUNCTION(result, name, parameters, arguments)                                                       \
    WH_HIDDEN result name parameters {                                                                                 \
        if (!wh_libcrypto_ready()) {                                                                                   \
            result failed;                                                                                             \
            memset(&failed, 0, sizeof failed);                                                                         \
            return failed;                                                                                             \
        }                                                                                                              \
        return wh_libcrypto.name arguments;                                                                            \
    }
#define WH_FORWARD_PROCEDURE(name, parameters, arguments)                                                              \
    WH_HIDDEN void name parameters {                                                                                   \
        if (wh_libcrypto_ready()) wh_libcrypto.name arguments;                                                         \
    }
WH_LIBCRYPTO_FUNCTIONS(WH_FORWARD_FUNCTION, WH_FORWARD_PROCEDURE)
