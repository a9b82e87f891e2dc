/*
 * The part of libexterr's <exterr.h> that the Python binding uses, in the
 * subset of C that cffi's cdef() understands: no #include, no #ifdef, and
 * macros only as integer constants.  In API mode cffi compiles this against
 * the real header, so a member or prototype that drifts from exterr.h fails
 * the build instead of misreading memory at run time.
 */

#define EXTERR_MAX_JSON ...
#define EXTERR_MAX_DEPTH ...
#define EXTERR_VERSION_NUMBER ...

enum exterr_field_type {
	EXTERR_FIELD_STRING = 1,
	EXTERR_FIELD_INTEGER,
	EXTERR_FIELD_REAL,
	EXTERR_FIELD_BOOLEAN,
	EXTERR_FIELD_NULL,
	EXTERR_FIELD_OBJECT,
	EXTERR_FIELD_ARRAY,
};

struct exterr_field {
	const char *name;
	enum exterr_field_type type;
	const char *value;
	long long integer;
};

/*
 * "...;" lets the compiler supply the real layout: the library may append
 * members (see err->size), and the binding only reads those listed here.
 */
struct exterr {
	size_t size;
	int error;
	const char *module;
	const char *message;
	const char *file;
	int line;
	int syscall;
	size_t nr_fields;
	const struct exterr_field *fields;
	const char *json;
	size_t json_len;
	...;
};

struct exterr_parse_error {
	size_t size;
	int error;
	size_t position;
	int line;
	int column;
	char reason[160];
	...;
};

const char *exterr_version(void);

int exterr_fetch(struct exterr **errp);
/* Since libexterr 1.1 (symbol version EXTERR_1.1). */
int exterr_supported(void);
int exterr_parse_ex(const char *json, size_t len, struct exterr **errp,
		    struct exterr_parse_error *perr);
void exterr_free(struct exterr *err);

int exterr_format(const struct exterr *err, char *buf, size_t size);

const char *exterr_error_class(int neg_errno);
const char *exterr_field_type_name(enum exterr_field_type type);
