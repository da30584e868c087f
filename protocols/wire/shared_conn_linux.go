//go:build linux && !gse_portable

package wire

// A query's side of its registration: sending, waiting for its datagrams within
// the deadline, and cancellation.

import (
	"os"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// write sends one datagram to the registered destination.
func (e *shared) write(b []byte) error {
	if e.prompt && e.cancelled() {
		return errProbeCancelled
	}
	e.wbuf, e.werr = b, nil
	err := e.s.raw.Write(e.writeFn)
	e.wbuf = nil
	if err == nil {
		err = e.werr
	}
	return err
}

// doWrite sends e.wbuf. The kernel reports an ICMP error pending on the socket to
// the next sendto, whoever's destination caused it (and clears it): on an error the
// error queue is handed out to the queries it names, and the datagram sent again.
func (e *shared) doWrite(fd uintptr) bool {
	var p unsafe.Pointer
	if len(e.wbuf) > 0 {
		p = unsafe.Pointer(&e.wbuf[0])
	}
	for again := true; ; {
		// Raw: a non-blocking sendto returns at once, and a P marked as in a
		// system call is what the runtime's sysmon hands to another thread when
		// it sees one twice (every 20 µs while it finds any); a busy exporter
		// spent a tenth of its CPU on that sysmon and its hand-offs.
		_, _, errno := unix.RawSyscall6(unix.SYS_SENDTO, fd, uintptr(p), uintptr(len(e.wbuf)), 0, uintptr(unsafe.Pointer(&e.sa[0])), uintptr(e.salen))
		switch {
		case errno == 0:
			return true
		case errno == unix.EAGAIN:
			return false
		case errno == unix.EINTR:
		case again:
			again = false
			e.s.readErrors(fd)
		default:
			e.werr = os.NewSyscallError("sendto", errno)
			return true
		}
	}
}

func (e *shared) cancelled() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// recv waits for the next datagram from the destination, or its ICMP error; at is
// its arrival by the kernel's clock (Unix nanoseconds, 0: unknown), dropped counts
// the datagrams dropped for a full queue meanwhile.
func (e *shared) recv() (b []byte, at int64, dropped int, err error) {
	for {
		e.s.mu.Lock()
		dropped, e.ndrop = dropped+e.ndrop, 0
		if len(e.queue) > 0 {
			// Shifted down rather than resliced, so the pooled entry keeps its array.
			b, at = e.queue[0].b, e.queue[0].at
			n := copy(e.queue, e.queue[1:])
			e.queue[n] = datagram{}
			e.queue = e.queue[:n]
			e.queued -= len(b)
			e.s.mu.Unlock()
			return b, at, dropped, nil
		}
		if err = e.err; err != nil {
			e.err = nil
			e.s.mu.Unlock()
			return nil, 0, dropped, err
		}
		e.s.mu.Unlock()
		var expired <-chan time.Time
		if !e.deadline.IsZero() {
			d := time.Until(e.deadline)
			if d <= 0 {
				return nil, 0, dropped, os.ErrDeadlineExceeded
			}
			if e.timer == nil {
				e.timer = time.NewTimer(d)
			} else {
				e.timer.Reset(d)
			}
			expired = e.timer.C
		}
		select {
		case <-e.wake:
		case <-expired:
			return nil, 0, dropped, os.ErrDeadlineExceeded
		case <-e.done:
			if e.prompt {
				return nil, 0, dropped, errProbeCancelled
			}
			return nil, 0, dropped, os.ErrDeadlineExceeded
		}
	}
}
