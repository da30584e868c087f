//go:build unix

package protocols

import (
	"os"
	"syscall"
)

// openNonBlocking opens path for reading with O_NONBLOCK: opening a FIFO returns at
// once instead of waiting for a writer. Reads of a regular file ignore the flag.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
