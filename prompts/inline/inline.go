// Package inline holds the prompts of package prompts as Go strings, for the wasm: a program that
// imports package embed links io/fs and time with it (their init functions and what they reach,
// about 46 KB of the wasm's brotli size), and package prompts is an embed.FS. Prompts, in
// prompts.go, is generated from prompts/*.md by gen.go (`make build` runs it); a test checks that
// it holds exactly what package prompts embeds.
package inline

//go:generate go run gen.go

// File is one prompt file: its name in prompts/ ("<evaluator id>.md") and its text.
type File struct {
	Name, Text string
}

// Files are prompt files, sorted by name; judge.Load reads them as it reads prompts.FS.
type Files []File

// ReadFile returns the text of the file named name, or the error prompts.FS gives for a file it
// does not hold.
func (fs Files) ReadFile(name string) ([]byte, error) {
	for _, f := range fs {
		if f.Name == name {
			return []byte(f.Text), nil
		}
	}
	return nil, notExist(name)
}

// notExist reads like the *fs.PathError of an embed.FS, without importing io/fs.
type notExist string

func (e notExist) Error() string { return "open " + string(e) + ": file does not exist" }
