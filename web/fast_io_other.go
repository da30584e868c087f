//go:build !(linux || freebsd || netbsd || dragonfly)

package web

// rawIO is where the kernel takes system calls directly (fast_io_direct.go);
// elsewhere (macOS, OpenBSD, Windows) the connection's own Read and Write serve.
type rawIO struct{}

func newRawIO(any) *rawIO                        { return nil }
func (r *rawIO) read([]byte) (int, error)        { panic("rawIO: not on this platform") }
func (r *rawIO) write([]byte) error              { panic("rawIO: not on this platform") }
func (r *rawIO) readIdle() (*[]byte, int, error) { panic("rawIO: not on this platform") }
