// Command stack panics three calls deep and prints the stack as ragjudge's bridge does when the
// core panics (runtime.Stack, then print): test/unit/droplines.test.mjs builds it to wasm and
// reads its stack with and without line tables.
package main

import "runtime"

type parser struct{ depth int }

func (p *parser) parse(s string) int {
	if s == "" {
		var m map[string]*parser
		return m["x"].depth // a nil dereference, as a core bug would be
	}
	return p.parse(s[1:]) + 1
}

func main() {
	defer func() {
		if r := recover(); r != nil {
			stack := make([]byte, 64<<10)
			stack = stack[:runtime.Stack(stack, false)]
			print("stack panicked\n" + string(stack))
		}
	}()
	p := &parser{}
	println(p.parse("ab"))
}
