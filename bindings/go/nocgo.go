//go:build !cgo

package exterr

// Without cgo there is no libexterr to call. These keep the package (and
// programs that import it, built with CGO_ENABLED=0 for a static binary
// or a cross build) compiling, and make every description unavailable
// the way a kernel without exterr does: Do falls back to returning its
// function's error unchanged.

func parse([]byte) (*Error, error) { return nil, ErrNoCgo }

func fetchDesc(notes bool) (*Error, error) { return nil, ErrNoCgo }

func supported() bool { return false }
