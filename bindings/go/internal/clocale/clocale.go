//go:build cgo

// Package clocale lets the tests put a process under the locale its
// environment names, as a C program's main() would with
// setlocale(LC_ALL, ""). Go's standard library has no setlocale, and
// cgo is not allowed in _test.go files, so the call lives here.
//
// libexterr translates the message of Error() with gettext, which reads
// the C library's locale (LC_MESSAGES), never the environment directly:
// until this is called, a process stays in the C locale and gets English.
package clocale

/*
#include <locale.h>
#include <stdlib.h>
*/
import "C"

import (
	"errors"
	"unsafe"
)

// FromEnvironment calls setlocale(LC_ALL, "") and returns the locale it
// selected, or an error when the environment names one this system lacks.
// It changes the whole process: call it before other goroutines use C.
func FromEnvironment() (string, error) {
	empty := C.CString("")
	defer C.free(unsafe.Pointer(empty))
	name := C.setlocale(C.LC_ALL, empty)
	if name == nil {
		return "", errors.New("setlocale(LC_ALL, \"\"): the environment's locale is not available")
	}
	return C.GoString(name), nil
}
