package wire

import (
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestDialUDPListBurst: a reply of 1,000 datagrams sent at once (a master's
// list) waits in the socket's own buffer until read; none is lost on loopback.
// A shared socket's query holds 256, a default buffer about 150.
func TestDialUDPListBurst(t *testing.T) {
	const n = 1000
	if b, err := os.ReadFile("/proc/sys/net/core/rmem_max"); err != nil {
		t.Skip("no /proc/sys/net/core/rmem_max")
	} else if max, _ := strconv.Atoi(strings.TrimSpace(string(b))); max < 4<<20 {
		t.Skipf("net.core.rmem_max %d caps the buffer below the burst", max)
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		buf := make([]byte, 64)
		_, from, err := pc.ReadFrom(buf)
		if err != nil {
			return
		}
		d := make([]byte, 1400)
		for i := 0; i < n; i++ {
			pc.WriteTo(d, from)
		}
	}()
	ctx := ctxT(t, 5*time.Second)
	c, err := DialUDPList(ctx, pc.LocalAddr().(*net.UDPAddr).AddrPort(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Send([]byte("list")); err != nil {
		t.Fatal(err)
	}
	<-sent // the whole burst waits in the buffer before the first read
	for i := 0; i < n; i++ {
		if _, err := c.Recv(); err != nil {
			t.Fatalf("datagram %d of %d: %v", i+1, n, err)
		}
	}
}
