//go:build linux || freebsd || netbsd || dragonfly

package web

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// rawPair returns a loopback TCP connection whose server side reads and writes
// through rawIO, and its client side.
func rawPair(t *testing.T) (*rawIO, net.Conn, net.Conn) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	client, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	r := newRawIO(server)
	if r == nil {
		t.Fatal("a TCP connection has no RawConn")
	}
	return r, server, client
}

func TestRawIO(t *testing.T) {
	t.Run("a write larger than the socket buffers, to a slow reader", func(t *testing.T) {
		r, _, client := rawPair(t)
		want := bytes.Repeat([]byte("0123456789abcdef"), 1<<19) // 8 MiB: EAGAIN, waits, partial writes
		got := make(chan []byte)
		go func() {
			time.Sleep(50 * time.Millisecond) // the buffers fill first
			client.SetReadDeadline(time.Now().Add(20 * time.Second))
			b, _ := io.ReadAll(io.LimitReader(client, int64(len(want))))
			got <- b
		}()
		if err := r.write(want); err != nil {
			t.Fatal(err)
		}
		if b := <-got; !bytes.Equal(b, want) {
			t.Fatalf("read %d bytes, not the %d written", len(b), len(want))
		}
	})
	t.Run("reads what arrives, then EOF", func(t *testing.T) {
		r, _, client := rawPair(t)
		go func() {
			time.Sleep(20 * time.Millisecond) // the first read waits in the poller
			client.Write([]byte("GET /"))
			client.Close()
		}()
		buf := make([]byte, 64)
		n, err := r.read(buf)
		if err != nil || string(buf[:n]) != "GET /" {
			t.Fatalf("read %q, %v", buf[:n], err)
		}
		if n, err := r.read(buf); n != 0 || !errors.Is(err, io.EOF) {
			t.Fatalf("after the peer closed: %d, %v", n, err)
		}
	})
	t.Run("a read deadline ends a wait", func(t *testing.T) {
		r, server, _ := rawPair(t)
		server.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		if _, err := r.read(make([]byte, 8)); !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("read past its deadline: %v", err)
		}
	})
	t.Run("a write to a peer that left fails without a signal", func(t *testing.T) {
		r, _, client := rawPair(t)
		client.(*net.TCPConn).SetLinger(0) // close with a reset
		client.Close()
		time.Sleep(20 * time.Millisecond)
		var err error
		for range 10 { // the first write after a reset may still be taken
			if err = r.write([]byte("answer")); err != nil {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		if err == nil {
			t.Fatal("writes to a reset connection kept succeeding")
		}
	})
}
