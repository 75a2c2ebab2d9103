// libcrypto is not linked: APNsJWT loads libcrypto.so.3 at run time (OpenSSLLibrary), when a
// provider token is signed or checked, so a cron run that signs nothing (an idle one, or one
// whose cached token is still good) never maps it. Every function APNsJWT calls is a pointer in
// one table, and a static inline wrapper of libcrypto's own name and prototype calls through it,
// so the Swift code reads as it would over the linked library.
#include <dlfcn.h>

// The functions called: one line each, in the table and its binding.
#define LIVEACTIVITY_CRYPTO_FUNCTIONS(X) \
    X(BIO_ctrl_pending) X(BIO_free) X(BIO_new) X(BIO_read) X(BIO_s_mem) X(BIO_write) X(BN_bin2bn) \
    X(BN_bn2binpad) X(BN_free) X(ECDSA_SIG_free) X(ECDSA_SIG_get0) X(ECDSA_SIG_new) X(ECDSA_SIG_set0) \
    X(ERR_error_string_n) X(ERR_get_error) X(EVP_DigestSign) X(EVP_DigestSignInit) X(EVP_DigestVerify) \
    X(EVP_DigestVerifyInit) X(EVP_MD_CTX_free) X(EVP_MD_CTX_new) X(EVP_PKEY_free) X(EVP_PKEY_get_base_id) \
    X(EVP_PKEY_get_group_name) X(EVP_sha256) X(OBJ_nid2sn) X(PEM_read_bio_PUBKEY) X(PEM_read_bio_PrivateKey) \
    X(PEM_write_bio_PUBKEY) X(d2i_ECDSA_SIG) X(i2d_ECDSA_SIG)

// The headers' declarations of those functions under other names (never defined, never called),
// so that the wrappers can take libcrypto's names; their types give the table's pointer types.
#define BIO_ctrl_pending liveactivity_declared_BIO_ctrl_pending
#define BIO_free liveactivity_declared_BIO_free
#define BIO_new liveactivity_declared_BIO_new
#define BIO_read liveactivity_declared_BIO_read
#define BIO_s_mem liveactivity_declared_BIO_s_mem
#define BIO_write liveactivity_declared_BIO_write
#define BN_bin2bn liveactivity_declared_BN_bin2bn
#define BN_bn2binpad liveactivity_declared_BN_bn2binpad
#define BN_free liveactivity_declared_BN_free
#define ECDSA_SIG_free liveactivity_declared_ECDSA_SIG_free
#define ECDSA_SIG_get0 liveactivity_declared_ECDSA_SIG_get0
#define ECDSA_SIG_new liveactivity_declared_ECDSA_SIG_new
#define ECDSA_SIG_set0 liveactivity_declared_ECDSA_SIG_set0
#define ERR_error_string_n liveactivity_declared_ERR_error_string_n
#define ERR_get_error liveactivity_declared_ERR_get_error
#define EVP_DigestSign liveactivity_declared_EVP_DigestSign
#define EVP_DigestSignInit liveactivity_declared_EVP_DigestSignInit
#define EVP_DigestVerify liveactivity_declared_EVP_DigestVerify
#define EVP_DigestVerifyInit liveactivity_declared_EVP_DigestVerifyInit
#define EVP_MD_CTX_free liveactivity_declared_EVP_MD_CTX_free
#define EVP_MD_CTX_new liveactivity_declared_EVP_MD_CTX_new
#define EVP_PKEY_free liveactivity_declared_EVP_PKEY_free
#define EVP_PKEY_get_base_id liveactivity_declared_EVP_PKEY_get_base_id
#define EVP_PKEY_get_group_name liveactivity_declared_EVP_PKEY_get_group_name
#define EVP_sha256 liveactivity_declared_EVP_sha256
#define OBJ_nid2sn liveactivity_declared_OBJ_nid2sn
#define PEM_read_bio_PUBKEY liveactivity_declared_PEM_read_bio_PUBKEY
#define PEM_read_bio_PrivateKey liveactivity_declared_PEM_read_bio_PrivateKey
#define PEM_write_bio_PUBKEY liveactivity_declared_PEM_write_bio_PUBKEY
#define d2i_ECDSA_SIG liveactivity_declared_d2i_ECDSA_SIG
#define i2d_ECDSA_SIG liveactivity_declared_i2d_ECDSA_SIG
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#undef BIO_ctrl_pending
#undef BIO_free
#undef BIO_new
#undef BIO_read
#undef BIO_s_mem
#undef BIO_write
#undef BN_bin2bn
#undef BN_bn2binpad
#undef BN_free
#undef ECDSA_SIG_free
#undef ECDSA_SIG_get0
#undef ECDSA_SIG_new
#undef ECDSA_SIG_set0
#undef ERR_error_string_n
#undef ERR_get_error
#undef EVP_DigestSign
#undef EVP_DigestSignInit
#undef EVP_DigestVerify
#undef EVP_DigestVerifyInit
#undef EVP_MD_CTX_free
#undef EVP_MD_CTX_new
#undef EVP_PKEY_free
#undef EVP_PKEY_get_base_id
#undef EVP_PKEY_get_group_name
#undef EVP_sha256
#undef OBJ_nid2sn
#undef PEM_read_bio_PUBKEY
#undef PEM_read_bio_PrivateKey
#undef PEM_write_bio_PUBKEY
#undef d2i_ECDSA_SIG
#undef i2d_ECDSA_SIG

// One pointer per function, of the type the headers declare it with.
struct liveactivity_crypto_functions {
#define LIVEACTIVITY_CRYPTO_FIELD(name) __typeof__(liveactivity_declared_##name) *name;
    LIVEACTIVITY_CRYPTO_FUNCTIONS(LIVEACTIVITY_CRYPTO_FIELD)
#undef LIVEACTIVITY_CRYPTO_FIELD
};

// Fills `table` from `library` (a dlopen handle): NULL when every function was found, else the
// name of the first that was not. A function is looked up as a linked program's would be: first
// in the process's global scope (RTLD_DEFAULT, a null handle in glibc), where a preloaded library
// may interpose it (a test freezes a sweep inside EVP_DigestSign so), then in the library.
static inline void *liveactivity_crypto_lookup(void *library, const char *name) {
    void *function = dlsym((void *)0, name);
    return function ? function : dlsym(library, name);
}
static inline const char *liveactivity_crypto_bind(struct liveactivity_crypto_functions *table, void *library) {
#define LIVEACTIVITY_CRYPTO_BIND(name) \
    if (!(table->name = (__typeof__(table->name))liveactivity_crypto_lookup(library, #name))) return #name;
    LIVEACTIVITY_CRYPTO_FUNCTIONS(LIVEACTIVITY_CRYPTO_BIND)
#undef LIVEACTIVITY_CRYPTO_BIND
    return 0;
}

// The table of the loaded library, defined in Swift (APNsJWT's OpenSSLLibrary): it loads
// libcrypto at its first call if nothing did before. Callers load it first (OpenSSLLibrary.load),
// which fails with one line where the library is missing.
const struct liveactivity_crypto_functions *liveactivity_crypto(void);

static inline size_t BIO_ctrl_pending(BIO *b) { return liveactivity_crypto()->BIO_ctrl_pending(b); }
static inline int BIO_free(BIO *a) { return liveactivity_crypto()->BIO_free(a); }
static inline BIO *BIO_new(const BIO_METHOD *type) { return liveactivity_crypto()->BIO_new(type); }
static inline int BIO_read(BIO *b, void *data, int dlen) { return liveactivity_crypto()->BIO_read(b, data, dlen); }
static inline const BIO_METHOD *BIO_s_mem(void) { return liveactivity_crypto()->BIO_s_mem(); }
static inline int BIO_write(BIO *b, const void *data, int dlen) {
    return liveactivity_crypto()->BIO_write(b, data, dlen);
}
static inline BIGNUM *BN_bin2bn(const unsigned char *s, int len, BIGNUM *ret) {
    return liveactivity_crypto()->BN_bin2bn(s, len, ret);
}
static inline int BN_bn2binpad(const BIGNUM *a, unsigned char *to, int tolen) {
    return liveactivity_crypto()->BN_bn2binpad(a, to, tolen);
}
static inline void BN_free(BIGNUM *a) { liveactivity_crypto()->BN_free(a); }
static inline void ECDSA_SIG_free(ECDSA_SIG *sig) { liveactivity_crypto()->ECDSA_SIG_free(sig); }
static inline void ECDSA_SIG_get0(const ECDSA_SIG *sig, const BIGNUM **pr, const BIGNUM **ps) {
    liveactivity_crypto()->ECDSA_SIG_get0(sig, pr, ps);
}
static inline ECDSA_SIG *ECDSA_SIG_new(void) { return liveactivity_crypto()->ECDSA_SIG_new(); }
static inline int ECDSA_SIG_set0(ECDSA_SIG *sig, BIGNUM *r, BIGNUM *s) {
    return liveactivity_crypto()->ECDSA_SIG_set0(sig, r, s);
}
static inline void ERR_error_string_n(unsigned long e, char *buf, size_t len) {
    liveactivity_crypto()->ERR_error_string_n(e, buf, len);
}
static inline unsigned long ERR_get_error(void) { return liveactivity_crypto()->ERR_get_error(); }
static inline int EVP_DigestSign(EVP_MD_CTX *ctx, unsigned char *sigret, size_t *siglen, const unsigned char *tbs, size_t tbslen) {
    return liveactivity_crypto()->EVP_DigestSign(ctx, sigret, siglen, tbs, tbslen);
}
static inline int EVP_DigestSignInit(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey) {
    return liveactivity_crypto()->EVP_DigestSignInit(ctx, pctx, type, e, pkey);
}
static inline int EVP_DigestVerify(EVP_MD_CTX *ctx, const unsigned char *sigret, size_t siglen, const unsigned char *tbs, size_t tbslen) {
    return liveactivity_crypto()->EVP_DigestVerify(ctx, sigret, siglen, tbs, tbslen);
}
static inline int EVP_DigestVerifyInit(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey) {
    return liveactivity_crypto()->EVP_DigestVerifyInit(ctx, pctx, type, e, pkey);
}
static inline void EVP_MD_CTX_free(EVP_MD_CTX *ctx) { liveactivity_crypto()->EVP_MD_CTX_free(ctx); }
static inline EVP_MD_CTX *EVP_MD_CTX_new(void) { return liveactivity_crypto()->EVP_MD_CTX_new(); }
static inline void EVP_PKEY_free(EVP_PKEY *pkey) { liveactivity_crypto()->EVP_PKEY_free(pkey); }
static inline int EVP_PKEY_get_base_id(const EVP_PKEY *pkey) {
    return liveactivity_crypto()->EVP_PKEY_get_base_id(pkey);
}
static inline int EVP_PKEY_get_group_name(const EVP_PKEY *pkey, char *name, size_t name_sz, size_t *gname_len) {
    return liveactivity_crypto()->EVP_PKEY_get_group_name(pkey, name, name_sz, gname_len);
}
static inline const EVP_MD *EVP_sha256(void) { return liveactivity_crypto()->EVP_sha256(); }
static inline const char *OBJ_nid2sn(int n) { return liveactivity_crypto()->OBJ_nid2sn(n); }
static inline EVP_PKEY *PEM_read_bio_PUBKEY(BIO *out, EVP_PKEY **x, pem_password_cb *cb, void *u) {
    return liveactivity_crypto()->PEM_read_bio_PUBKEY(out, x, cb, u);
}
static inline EVP_PKEY *PEM_read_bio_PrivateKey(BIO *out, EVP_PKEY **x, pem_password_cb *cb, void *u) {
    return liveactivity_crypto()->PEM_read_bio_PrivateKey(out, x, cb, u);
}
static inline int PEM_write_bio_PUBKEY(BIO *out, const EVP_PKEY *x) {
    return liveactivity_crypto()->PEM_write_bio_PUBKEY(out, x);
}
static inline ECDSA_SIG *d2i_ECDSA_SIG(ECDSA_SIG **a, const unsigned char **in, long len) {
    return liveactivity_crypto()->d2i_ECDSA_SIG(a, in, len);
}
static inline int i2d_ECDSA_SIG(const ECDSA_SIG *a, unsigned char **out) {
    return liveactivity_crypto()->i2d_ECDSA_SIG(a, out);
}
