// A separate module that uses the binding the way a downstream project
// would. The replace directive points the binding's module path at this
// checkout; a go.work file does the same without editing go.mod (see
// bindings/go/README.md).
module example.com/explain

go 1.22

require exterr.dev/go/exterr v0.0.0-00010101000000-000000000000

replace exterr.dev/go/exterr => ../..
