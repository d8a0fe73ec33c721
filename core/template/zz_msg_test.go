package template

import (
	"fmt"
	"os"
	"testing"

	"ragjudge/core/value"
)

func TestZZMessages(t *testing.T) {
	p := os.Getenv("MSGS")
	if p == "" {
		t.Skip()
	}
	for _, c := range readJSONLines[differentialCase](t, p)[1:] {
		if c.Error == "" {
			continue
		}
		v, _ := value.Decode(c.Vars)
		vars, _ := v.(*value.Object)
		_, err := Render(c.Name, c.Template, c.Dialect, vars)
		fmt.Printf("%s\n  py: %s: %s\n  go: %v\n", c.Template, c.Error, c.Message, err)
	}
}
