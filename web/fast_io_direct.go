//go:build linux || freebsd || netbsd || dragonfly

package web

import (
	"io"
	"syscall"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire/rawsys"
)

// rawIO reads and writes a connection's socket with raw system calls (package
// rawsys says why), through its syscall.RawConn, which still waits for readiness
// in the runtime's poller, with the connection's deadlines. Where the kernel takes
// system calls only through libc (macOS, OpenBSD), fast_io_other.go.
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
	n, errno := rawsys.Read(fd, r.rb)
	if errno != 0 {
		return r.failed(errno)
	}
	if r.rn = n; n == 0 {
		r.err = io.EOF
	}
	return true
}

// failed keeps a call's error for read or write and tells the poller whether
// the call is done: not on EAGAIN, which waits for readiness.
func (r *rawIO) failed(errno syscall.Errno) bool {
	if errno == syscall.EAGAIN {
		return false
	}
	r.err = errno
	return true
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

// doSend writes what is left of r.wb.
func (r *rawIO) doSend(fd uintptr) bool {
	for len(r.wb) > 0 {
		n, errno := rawsys.Send(fd, r.wb)
		if errno != 0 {
			return r.failed(errno)
		}
		r.wb = r.wb[n:]
	}
	return true
}
