package prototest

import (
	"os"
	"path/filepath"
)

// SharedFiles returns the files of ../shared whose paths match glob
// ("fixtures/doom3/*.bin"), none without the shared tree: fuzz seeds that must
// not skip the fuzz target.
func SharedFiles(glob string) [][]byte {
	s := SharedDir()
	if s == "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(s, glob))
	var out [][]byte
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			out = append(out, b)
		}
	}
	return out
}
