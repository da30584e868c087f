//go:build linux && !gse_portable

package wire

// A shared socket's reader: batched recvmmsg reads, ICMP errors from the error
// queue, and failing every query when the socket breaks.

import (
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// readLoop reads until the socket is closed, or the poller gives up on it.
func (s *sharedSocket) readLoop() {
	err := s.raw.Read(s.readFn)
	for err == nil {
		err = s.raw.Read(s.readFn)
	}
	s.fail(err)
}

// fail ends every query on s with err, at once rather than at its deadline, and
// takes no more: the next query opens a fresh socket. Nothing to do once closed.
func (s *sharedSocket) fail(err error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.broken = err
	var waiting []*shared
	for _, e := range s.entries {
		e.err = os.NewSyscallError("shared socket", err)
		waiting = append(waiting, e)
	}
	s.mu.Unlock()
	for _, e := range waiting {
		e.signal()
	}
}

// batch is the buffers and headers of one recvmmsg. Borrowed only while a reader
// drains its socket, so sockets waiting on silent servers hold none.
type batch struct {
	hdrs  [batchSize]unix.Mmsghdr
	iovs  [batchSize]unix.Iovec
	names [batchSize][unix.SizeofSockaddrInet6]byte
	ctrls [batchSize][controlSize]byte // SO_TIMESTAMPNS's control message
	bufs  [batchSize][]byte
}

// controlSize fits one SCM_TIMESTAMPNS control message: a 16-byte header and a
// 16-byte timespec (CmsgSpace; TestControlSize holds them equal).
const controlSize = 32

var batches = make(chan *batch, 4)

func getBatch() *batch {
	select {
	case b := <-batches:
		return b
	default:
	}
	b := &batch{}
	for i := range b.hdrs {
		b.bufs[i] = make([]byte, MaxDatagram)
		b.iovs[i].Base = &b.bufs[i][0]
		b.iovs[i].SetLen(MaxDatagram)
		b.hdrs[i].Hdr.Iov = &b.iovs[i]
		b.hdrs[i].Hdr.SetIovlen(1)
		b.hdrs[i].Hdr.Name = &b.names[i][0]
		b.hdrs[i].Hdr.Control = &b.ctrls[i][0]
	}
	return b
}

func putBatch(b *batch) {
	select {
	case batches <- b:
	default:
	}
}

// read drains the socket: it runs when the poller says it may be readable, and
// returns false to wait for the next datagram.
func (s *sharedSocket) read(fd uintptr) bool {
	b := getBatch()
	defer putBatch(b)
	for got, failed := 0, false; ; {
		for i := range b.hdrs {
			b.hdrs[i].Hdr.Namelen = unix.SizeofSockaddrInet6
			b.hdrs[i].Hdr.SetControllen(controlSize)
			b.hdrs[i].Hdr.Flags = 0
		}
		// Raw, as doWrite's sendto: MSG_DONTWAIT never blocks.
		n, _, errno := unix.RawSyscall6(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&b.hdrs[0])), batchSize, unix.MSG_DONTWAIT, 0, 0)
		switch errno {
		case 0:
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			if got == 0 {
				// Woken with nothing to read: an ICMP error whose pending
				// report a sendto took (see doWrite) may wait in the queue.
				s.readErrors(fd)
			}
			return false
		default:
			// An ICMP error (IP_RECVERR): the error queue says for whom. A
			// second error with nothing queued is not one: wait, do not spin.
			if s.readErrors(fd) == 0 && failed {
				return false
			}
			failed = true
			continue
		}
		for i := range int(n) {
			h := &b.hdrs[i]
			if k, ok := keyOf(b.names[i][:h.Hdr.Namelen]); ok {
				s.deliver(k, b.bufs[i][:h.Len], h.Hdr.Flags&unix.MSG_TRUNC != 0, arrival(b.ctrls[i][:h.Hdr.Controllen]))
			}
		}
		got += int(n)
		if int(n) < batchSize {
			return false
		}
	}
}

// readErrors hands each queued ICMP error to the query of the destination it
// names, and returns how many it read. The recvmsg is raw, as read's recvmmsg:
// it is called on every wake-up that finds nothing to read.
func (s *sharedSocket) readErrors(fd uintptr) int {
	var (
		oob  [128]byte
		p    [1]byte
		name [unix.SizeofSockaddrInet6]byte
		iov  unix.Iovec
		msg  unix.Msghdr
	)
	iov.Base = &p[0]
	iov.SetLen(len(p))
	n := 0
	for try := 0; try < 64; try++ {
		msg = unix.Msghdr{Name: &name[0], Namelen: uint32(len(name)), Iov: &iov, Control: &oob[0]}
		msg.SetIovlen(1)
		msg.SetControllen(len(oob))
		_, _, errno := unix.RawSyscall(unix.SYS_RECVMSG, fd, uintptr(unsafe.Pointer(&msg)), unix.MSG_ERRQUEUE|unix.MSG_DONTWAIT)
		if errno == unix.EINTR {
			continue
		}
		if errno != 0 {
			break
		}
		n++
		errno = icmpErrno(oob[:msg.Controllen])
		k, ok := keyOf(name[:msg.Namelen])
		if errno == 0 || !ok {
			continue
		}
		s.mu.Lock()
		e := s.entries[k]
		if e != nil {
			e.err = os.NewSyscallError("recvmsg", errno)
		}
		s.mu.Unlock()
		if e != nil {
			e.signal()
		}
	}
	return n
}

// arrival reads SCM_TIMESTAMPNS from a datagram's control data: the kernel's time
// of its arrival in Unix nanoseconds, 0 when there is none.
func arrival(ctrl []byte) int64 {
	if len(ctrl) < unix.CmsgSpace(int(unsafe.Sizeof(unix.Timespec{}))) {
		return 0
	}
	h := (*unix.Cmsghdr)(unsafe.Pointer(&ctrl[0]))
	if h.Level != unix.SOL_SOCKET || h.Type != unix.SCM_TIMESTAMPNS {
		return 0
	}
	ts := (*unix.Timespec)(unsafe.Pointer(&ctrl[unix.CmsgLen(0)]))
	return ts.Nano()
}

// icmpErrno reads ee_errno from the IP_RECVERR / IPV6_RECVERR control message.
func icmpErrno(oob []byte) syscall.Errno {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return 0
	}
	for _, m := range msgs {
		if (m.Header.Level == unix.IPPROTO_IP && m.Header.Type == unix.IP_RECVERR ||
			m.Header.Level == unix.IPPROTO_IPV6 && m.Header.Type == unix.IPV6_RECVERR) && len(m.Data) >= 4 {
			return syscall.Errno(*(*uint32)(unsafe.Pointer(&m.Data[0])))
		}
	}
	return 0
}
