//go:build linux || freebsd || netbsd || dragonfly

package web

import (
	"io"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// rawIO reads and writes a connection's socket with raw system calls, through its
// syscall.RawConn (which still waits for readiness in the runtime's poller, with
// the connection's deadlines). A plain Read or Write marks the goroutine's P as
// in a system call, and the first such mark after a moment with every P idle
// wakes the runtime's sysmon, which then polls every 20 µs for a millisecond and
// more: on a busy exporter, thousands of wake-ups a second and a tenth of its
// CPU. A non-blocking read or write of a socket returns at once, so nothing is
// lost by keeping the P. These kernels take system calls directly; macOS and
// OpenBSD only through libc (fast_io_other.go).
type rawIO struct {
	rc                     syscall.RawConn
	readFn, idleFn, sendFn func(fd uintptr) bool
	rb, wb                 []byte
	rn                     int
	err                    error
	idle                   *[]byte // readIdle's buffer, held only while it has bytes
}

// newRawIO returns c's raw I/O, or nil when c has no RawConn.
func newRawIO(c any) *rawIO {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	r := &rawIO{rc: rc}
	r.readFn, r.idleFn, r.sendFn = r.doRead, r.doIdleRead, r.doSend
	return r
}

// readIdle waits for bytes and reads what has come into a pooled buffer, which
// the caller gives back to idleBufs: a connection waiting for its next request
// holds no buffer (a 4 KiB one each, thousands of idle keep-alive connections),
// and the system calls are those of a plain read.
func (r *rawIO) readIdle() (*[]byte, int, error) {
	r.rn, r.err = 0, nil
	err := r.rc.Read(r.idleFn)
	b := r.idle
	r.idle, r.rb = nil, nil
	if err == nil {
		err = r.err
	}
	if err != nil {
		if b != nil {
			idleBufs.Put(b)
		}
		return nil, 0, err
	}
	return b, r.rn, nil
}

func (r *rawIO) doIdleRead(fd uintptr) bool {
	if r.idle == nil {
		r.idle = idleBufs.Get().(*[]byte)
	}
	r.rb = *r.idle
	if r.doRead(fd) {
		return true
	}
	idleBufs.Put(r.idle) // nothing yet: wait without it
	r.idle, r.rb = nil, nil
	return false
}

func (r *rawIO) read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.rb, r.rn, r.err = p, 0, nil
	err := r.rc.Read(r.readFn)
	r.rb = nil
	if err != nil {
		return 0, err // a deadline passed, or the connection closed
	}
	return r.rn, r.err
}

func (r *rawIO) doRead(fd uintptr) bool {
	for {
		n, _, errno := unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&r.rb[0])), uintptr(len(r.rb)))
		switch errno {
		case 0:
			if r.rn = int(n); n == 0 {
				r.err = io.EOF
			}
			return true
		case unix.EINTR:
		case unix.EAGAIN:
			return false
		default:
			r.err = errno
			return true
		}
	}
}

func (r *rawIO) write(b []byte) error {
	r.wb, r.err = b, nil
	err := r.rc.Write(r.sendFn)
	r.wb = nil
	if err != nil {
		return err
	}
	return r.err
}

// doSend writes what is left of r.wb; MSG_NOSIGNAL: a peer that left is an
// EPIPE, not a signal.
func (r *rawIO) doSend(fd uintptr) bool {
	for len(r.wb) > 0 {
		n, _, errno := unix.RawSyscall6(unix.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&r.wb[0])), uintptr(len(r.wb)), unix.MSG_NOSIGNAL, 0, 0)
		switch errno {
		case 0:
			r.wb = r.wb[n:]
		case unix.EINTR:
		case unix.EAGAIN:
			return false
		default:
			r.err = errno
			return true
		}
	}
	return true
}
