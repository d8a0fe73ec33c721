package template

// The supported tests, each as jinja2/tests.py defines it.

// testOf returns the definition of a supported test; its function returns a bool.
func testOf(name string) (filterDef, bool) {
	switch name {
	case "defined":
		return def("test_defined", 1, []string{"value"}, nil, func(v any, _ []any) (any, error) {
			_, undef := v.(*undefined)
			return !undef, nil
		})
	case "undefined":
		return def("test_undefined", 1, []string{"value"}, nil, func(v any, _ []any) (any, error) {
			_, undef := v.(*undefined)
			return undef, nil
		})
	}
	return filterDef{}, false
}
