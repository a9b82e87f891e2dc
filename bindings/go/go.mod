// exterr.dev/go/exterr is a vanity path: it names the binding, not the
// place the repository is hosted, so moving the repository does not change
// any import. Until exterr.dev serves a go-import meta tag, consumers point
// at a checkout with a replace directive or a go.work file (see README.md).
module exterr.dev/go/exterr

go 1.22
