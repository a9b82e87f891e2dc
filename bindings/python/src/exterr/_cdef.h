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
/* exterr_fetch_ex() flag, 1.1 (v2). */
#define EXTERR_FETCH_NOTES ...

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

/* 1.1 (v2): a note's severity, and one runtime value (an array element,
 * so its layout is fixed, like exterr_field's). */
enum exterr_severity {
	EXTERR_SEVERITY_ERROR = 0,
	EXTERR_SEVERITY_INFO,
	EXTERR_SEVERITY_WARNING,
};

struct exterr_value {
	const char *name;
	long long value;
	unsigned long long uvalue;
	int negative;
};

/*
 * "...;" lets the compiler supply the real layout: the library may append
 * members (see err->size), and the binding only reads those listed here.
 * The members from id on came with 1.1 (v2): read them only when err->size
 * covers them (EXTERR_HAS() in exterr.h; _extended.has_member() here).
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
	const char *id;
	enum exterr_severity severity;
	size_t nr_values;
	const struct exterr_value *values;
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
/* Since libexterr 1.1 with v2 (also EXTERR_1.1): notes and values. */
int exterr_fetch_ex(struct exterr **errp, unsigned int flags);
const struct exterr_value *exterr_value(const struct exterr *err,
					const char *name);
int exterr_parse_ex(const char *json, size_t len, struct exterr **errp,
		    struct exterr_parse_error *perr);
void exterr_free(struct exterr *err);

int exterr_format(const struct exterr *err, char *buf, size_t size);

const char *exterr_error_class(int neg_errno);
const char *exterr_field_type_name(enum exterr_field_type type);
