//go:build !linux

package web

// rawIO is Linux's (fast_io_linux.go); elsewhere the connection's own Read and
// Write serve.
type rawIO struct{}

func newRawIO(any) *rawIO                        { return nil }
func (r *rawIO) read([]byte) (int, error)        { panic("rawIO: Linux only") }
func (r *rawIO) write([]byte) error              { panic("rawIO: Linux only") }
func (r *rawIO) readIdle() (*[]byte, int, error) { panic("rawIO: Linux only") }
