//go:build !unix

package protocols

import (
	"fmt"
	"os"
)

// openNonBlocking checks that path is a regular file, then opens it: where there is
// no O_NONBLOCK, the check comes first.
func openNonBlocking(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", path, st.Mode().Type())
	}
	return os.Open(path)
}
