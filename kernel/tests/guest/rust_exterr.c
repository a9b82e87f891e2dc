// SPDX-License-Identifier: GPL-2.0
/*
 * The Rust sample (samples/rust/rust_exterr.rs, a module in
 * kernel/config/rust.config) against user space: a bad level written to
 * <debugfs>/rust_exterr/level fails with the plain errno, and the
 * description prctl(PR_GET_ERR_DESC) returns names the Rust source file
 * and, for the sample's own domain, its fields; libexterr parses it like
 * any other. Each description is printed for the host's strict JSON
 * check (tests/check-json.py).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <exterr.h>

#include "check.h"
#include "err_desc.h"

#define MODULE "rust_exterr"
#define LEVEL "/sys/kernel/debug/rust_exterr/level"
#define RUST_FILE "samples/rust/rust_exterr.rs"

static int fd;

/* Write @text, which must fail with @want; 0 if it did. */
static int write_fails(const char *text, int want)
{
	ssize_t n = write(fd, text, strlen(text));

	if (n != -1 || errno != want) {
		printf("FAIL write(\"%s\") = %zd, errno %d, want -1 errno %d\n",
		       text, n, errno, want);
		return 1;
	}
	return 0;
}

/* The raw interface: the JSON, then libexterr's parse of it. */
static int check_raw(void)
{
	struct exterr *err;
	char json[1024];
	long n;

	CHECK(write_fails("9\n", ERANGE) == 0);
	n = prctl(PR_GET_ERR_DESC, json, sizeof(json), 0, 0);
	CHECK(n > 0 && (size_t)n == strlen(json));
	printf("# exterr-json: %s\n", json);
	CHECK(strstr(json, "\"file\":\"" RUST_FILE "\""));
	CHECK(exterr_parse(json, n, &err) == 0);
	CHECK(err->error == ERANGE);
	CHECK(!strcmp(err->module, "rust_exterr"));
	CHECK(!strcmp(err->file, RUST_FILE));
	CHECK(err->line > 0);
	CHECK(err->syscall == SYS_write);
	CHECK(!strcmp(err->message, "level above the maximum"));
	/* The fields of the sample's domain, in the order it writes them. */
	CHECK(err->nr_fields == 2);
	CHECK(!strcmp(err->fields[0].name, "param") &&
	      !strcmp(err->fields[0].value, "level"));
	CHECK(!strcmp(err->fields[1].name, "max") &&
	      err->fields[1].type == EXTERR_FIELD_INTEGER &&
	      err->fields[1].integer == 7);
	exterr_free(err);
	/* Fetching consumed it. */
	CHECK(prctl(PR_GET_ERR_DESC, json, sizeof(json), 0, 0) == -1 &&
	      errno == ENODATA);
	return 0;
}

/* Through exterr_fetch(): a site of the default domain, without fields. */
static int check_fetch(const char *text, int want, const char *message)
{
	struct exterr *err = NULL;

	CHECK(write_fails(text, want) == 0);
	CHECK(exterr_fetch(&err) == 0);
	printf("# exterr-json: %s\n", err->json);
	CHECK(err->error == want);
	CHECK(!strcmp(err->file, RUST_FILE));
	CHECK(!strcmp(err->message, message));
	CHECK(err->syscall == SYS_write);
	exterr_free(err);
	return 0;
}

/*
 * The sites are in the table C sites are in: <debugfs>/exterr/<module>
 * lists "<id> <file>:<line> <errno> <domain> <module> <message>", and the
 * sample has four ext_err! sites, one of its own domain with ERANGE, each
 * with an id of its domain ("rust." or "rust_exterr.").
 */
static int check_site_list(void)
{
	FILE *f = fopen("/sys/kernel/debug/exterr/" MODULE, "r");
	char line[512];
	int sites = 0, range = 0;

	CHECK(f);
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, " " RUST_FILE ":"))
			continue;
		sites++;
		CHECK(!strncmp(line, "rust.", 5) ||
		      !strncmp(line, "rust_exterr.", 12));
		if (strstr(line, " -34 rust_exterr rust_exterr level above the maximum"))
			range++;
	}
	fclose(f);
	CHECK(sites == 4);
	CHECK(range == 1);
	return 0;
}

/*
 * Unloading the module drops a pending description that points into it:
 * prctl() must then say there is none rather than read freed memory.
 */
static int check_unload(void)
{
	char json[1024];

	CHECK(write_fails("8", ERANGE) == 0);
	CHECK(close(fd) == 0);
	/* Pending before the unload: a size query leaves it so. */
	CHECK(prctl(PR_GET_ERR_DESC, NULL, 0, 0, 0) > 0);
	CHECK(syscall(SYS_delete_module, MODULE, O_NONBLOCK) == 0);
	CHECK(prctl(PR_GET_ERR_DESC, json, sizeof(json), 0, 0) == -1 &&
	      errno == ENODATA);
	return 0;
}

int main(void)
{
	struct exterr *err = NULL;
	int mod;

	/* Start on a line of its own: the console may not have ended one. */
	printf("\n");
	/*
	 * libexterr's constructor has enabled descriptions already (it comes
	 * with exterr_fetch()), but check_raw() reads them with prctl()
	 * itself: ask here too rather than depend on the library. Asking
	 * twice is harmless.
	 */
	CHECK(err_desc_enable() == 0);
	mod = open("/modules/" MODULE ".ko", O_RDONLY);
	CHECK(mod >= 0);
	CHECK(syscall(SYS_finit_module, mod, "", 0) == 0);
	close(mod);
	if (check_site_list())
		return 1;
	fd = open(LEVEL, O_WRONLY);
	CHECK(fd >= 0);
	/* A good level succeeds and leaves nothing to fetch. */
	CHECK(write(fd, "3\n", 2) == 2);
	CHECK(exterr_fetch(&err) == -ENODATA);
	if (check_raw())
		return 1;
	if (check_fetch("a level of 17 bytes", EINVAL,
			"input empty or longer than 16 bytes") ||
	    check_fetch("seven", EINVAL, "level is not a decimal number") ||
	    check_fetch("\xff", EINVAL, "level is not UTF-8 text"))
		return 1;
	if (check_unload())
		return 1;
	printf("ok Rust sites: plain errnos, descriptions from " RUST_FILE
	       ", dropped on unload\n");
	return 0;
}
