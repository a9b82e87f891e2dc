// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side test of the strace patch's description reader: the patched
 * strace's src/kernel_errors.c, built into this program against strace's
 * headers and configuration, with ptrace() and strace's output functions
 * replaced by fakes. Two modes:
 *
 *   kerr_unit FILE...   for each file, the JSON text a fake kernel hands
 *                       out for a failing call (errno from the text's
 *                       "code", syscall 298): one line, "reject" when
 *                       strace prints nothing, else "ok " + what it prints
 *                       (non-printable bytes of the fake's output as
 *                       \xHH, but strace's own quoting leaves none).
 *   kerr_unit --fetch   the request sequence against a fake kernel: EIO
 *                       turns the feature off for good, ERANGE grows the
 *                       buffer, ENODATA and a mismatched code or syscall
 *                       print nothing, injected errors and successful
 *                       calls are not asked about; and the opt-in,
 *                       prctl(PR_SET_ERR_DESC_ENABLED), asked for unless
 *                       --kernel-errors=no. Prints "N passed, N failed".
 *
 * (strace's string_quote() is replaced by a minimal quoting: the guest
 * test checks strace's real output; this one checks what is accepted.)
 */
#include "kernel_errors.c"

#include <stdarg.h>
#include <stdio.h>

static char out[1 << 20];
static size_t outlen;

void tprints(const char *s)
{
	size_t n = strlen(s);

	if (outlen + n < sizeof(out)) {
		memcpy(out + outlen, s, n);
		outlen += n;
	}
}

void tprintf(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tprints(buf);
}

/* Quotes when asked; escapes like string_quote() for the ASCII range. */
int print_quoted_string(const char *str, unsigned int size, unsigned int style)
{
	const unsigned char *s = (const unsigned char *)str;
	char buf[8];
	unsigned int i;

	if (!(style & QUOTE_OMIT_LEADING_TRAILING_QUOTES))
		tprints("\"");
	for (i = 0; i < size; i++) {
		if (s[i] == '"' || s[i] == '\\')
			snprintf(buf, sizeof(buf), "\\%c", s[i]);
		else if (s[i] >= 0x20 && s[i] < 0x7f)
			snprintf(buf, sizeof(buf), "%c", s[i]);
		else
			snprintf(buf, sizeof(buf), "\\x%02x", s[i]);
		tprints(buf);
	}
	if (!(style & QUOTE_OMIT_LEADING_TRAILING_QUOTES))
		tprints("\"");
	return 0;
}

void *strace_malloc(size_t size)
{
	void *p = malloc(size);

	if (!p)
		abort();
	return p;
}

/* strace's, for the enabling code's debug message: quiet here. */
bool debug_flag;

void perror_msg(const char *fmt, ...)
{
}

/* The fake kernel: what the next requests answer. */
static const char *fake_json;
static int fake_errno;		/* answer every request with this */
static unsigned int requests;

long ptrace(enum __ptrace_request req, ...)
{
	size_t size, len;
	va_list ap;
	char *buf;

	va_start(ap, req);
	(void)va_arg(ap, pid_t);
	size = (size_t)va_arg(ap, void *);
	buf = va_arg(ap, char *);
	va_end(ap);
	requests++;
	if ((int)req != PTRACE_GET_ERR_DESC) {
		errno = EINVAL;
		return -1;
	}
	if (fake_errno) {
		errno = fake_errno;
		return -1;
	}
	len = strlen(fake_json);
	if (!buf && !size)
		return len + 1;
	if (size < len + 1) {
		errno = ERANGE;
		return -1;
	}
	memcpy(buf, fake_json, len + 1);
	return len;
}

/* The fake kernel's prctl(): it knows the opt-in only. */
static unsigned int enable_requests;
static int enable_errno;	/* answer the opt-in with this */

int prctl(int option, ...)
{
	unsigned long arg[4];
	unsigned int i;
	va_list ap;

	va_start(ap, option);
	for (i = 0; i < 4; i++)
		arg[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (option != PR_SET_ERR_DESC_ENABLED || arg[0] != 1 || arg[1] ||
	    arg[2] || arg[3]) {
		errno = EINVAL;
		return -1;
	}
	enable_requests++;
	if (enable_errno) {
		errno = enable_errno;
		return -1;
	}
	return 0;
}

static void one(struct tcb *tcp, const char *json, size_t len)
{
	struct kerr_desc *desc = malloc(sizeof(*desc));
	char *text = malloc(2 * len + 2);

	outlen = 0;
	if (!desc || !text || !parse_desc(json, len, text, desc)) {
		printf("reject\n");
	} else {
		print_desc(desc);
		out[outlen] = 0;
		printf("ok%s\n", out + 1);
	}
	(void)tcp;
	free(desc);
	free(text);
}

static int passed, failed;

static void expect(const char *name, bool cond)
{
	if (cond) {
		passed++;
	} else {
		failed++;
		printf("FAIL %s\n", name);
	}
}

static const char described[] =
	"{\"code\":-22,\"id\":\"perf.x\",\"module\":\"perf\",\"file\":\"f.c\","
	"\"line\":1,\"message\":\"m\",\"syscall\":298,\"values\":{\"a\":1},"
	"\"attr_field\":\"sample_freq\"}";

static void call(struct tcb *tcp, unsigned long err, const char *json, int e)
{
	tcp->u_error = err;
	fake_json = json;
	fake_errno = e;
	outlen = 0;
	print_kernel_error(tcp);
	out[outlen] = 0;
}

static int fetch_tests(void)
{
	struct tcb tcb = { .pid = 1, .scno = 298 };
	char big[8192];
	unsigned int n;

	call(&tcb, EINVAL, described, 0);
	expect("described", !strcmp(out, " [perf.x: m: a=1 attr_field=sample_freq]"));
	call(&tcb, EINVAL, described, ENODATA);
	expect("ENODATA prints nothing", !outlen);
	call(&tcb, EBADF, described, 0);
	expect("another errno's description is not printed", !outlen);
	tcb.scno = 1;
	call(&tcb, EINVAL, described, 0);
	expect("another call's description is not printed", !outlen);
	tcb.scno = 298;
	n = requests;
	call(&tcb, 0, described, 0);
	expect("a successful call is not asked about", requests == n && !outlen);
	tcb.flags |= TCB_TAMPERED;
	call(&tcb, EINVAL, described, 0);
	expect("an injected error is not asked about", requests == n && !outlen);
	tcb.flags &= ~TCB_TAMPERED;

	/* Longer than the first buffer: asked for the size, then again. */
	snprintf(big, sizeof(big), "{\"code\":-22,\"module\":\"m\",\"file\":\"f\","
		 "\"line\":1,\"message\":\"%6000d\"}", 7);
	n = requests;
	call(&tcb, EINVAL, big, 0);
	expect("ERANGE: three requests", requests == n + 3);
	expect("ERANGE: printed", outlen > 6000);
	n = requests;
	call(&tcb, EINVAL, big, 0);
	expect("the grown buffer is kept", requests == n + 1 && outlen > 6000);

	/* A note: only in verbose mode, with the file and line. */
	static const char note[] = "{\"code\":0,\"severity\":\"info\",\"id\":\"v.n\","
		"\"module\":\"v\",\"file\":\"d.c\",\"line\":7,\"message\":\"n\"}";
	call(&tcb, 0, note, 0);
	expect("no note by default", !outlen);
	kernel_errors = KERNEL_ERRORS_VERBOSE;
	call(&tcb, 0, note, 0);
	expect("verbose: the note", !strcmp(out, " [note: v.n: n (d.c:7)]"));
	call(&tcb, EINVAL, note, 0);
	expect("a note is not a failure's description", !outlen);

	kernel_errors = KERNEL_ERRORS_NO;
	n = requests;
	call(&tcb, EINVAL, described, 0);
	expect("--kernel-errors=no asks nothing", requests == n && !outlen);

	/* EIO: once, then never again. */
	kernel_errors = KERNEL_ERRORS_YES;
	n = requests;
	call(&tcb, EINVAL, described, EIO);
	expect("EIO: one request", requests == n + 1 && !outlen);
	call(&tcb, EINVAL, described, 0);
	call(&tcb, EINVAL, described, 0);
	expect("after EIO: no more requests", requests == n + 1 && !outlen);

	/* The opt-in at start: one request, whatever the kernel answers. */
	n = enable_requests;
	enable_kernel_errors();
	expect("enables", enable_requests == n + 1);
	kernel_errors = KERNEL_ERRORS_VERBOSE;
	enable_errno = EINVAL;
	enable_kernel_errors();
	expect("verbose enables; EINVAL is ignored", enable_requests == n + 2);
	kernel_errors = KERNEL_ERRORS_NO;
	enable_kernel_errors();
	expect("--kernel-errors=no does not enable", enable_requests == n + 2);

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	static char json[KERR_MAX_JSON + 2];
	struct tcb tcb = { .pid = 1, .scno = 298 };
	int i;

	if (argc == 2 && !strcmp(argv[1], "--fetch"))
		return fetch_tests();
	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		size_t len;

		if (!f)
			return 2;
		len = fread(json, 1, sizeof(json) - 1, f);
		fclose(f);
		/*
		 * The kernel hands out the text without its NUL (a text with
		 * one inside is refused before parsing, as fetch_desc() does).
		 */
		if (len && !json[len - 1])
			len--;
		json[len] = 0;
		if (memchr(json, 0, len))
			printf("reject\n");
		else
			one(&tcb, json, len);
	}
	return 0;
}
