package wire

import (
	"bufio"
	"context"
	"errors"
	"net"
	"testing"
	"time"
)

// TestPromptCancel: under WithPromptCancel a cancellation ends a blocked read at
// once although the context has a deadline, on UDP and TCP alike.
func TestPromptCancel(t *testing.T) {
	silent := udpServer(t, func([]byte, int) [][]byte { return nil })
	ctx, cancel := context.WithTimeout(WithPromptCancel(context.Background()), time.Minute)
	u := dialT(t, ctx, silent, nil)

	tc := servedTCP(t, ctx, nil, func(c net.Conn) { bufio.NewReader(c).ReadString('\n') }) // the line never comes

	start := time.Now()
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, err := u.Recv(); !errors.Is(err, ErrTimeout) {
		t.Errorf("udp read after cancel: %v", err)
	}
	if _, err := tc.Read(make([]byte, 8)); err == nil {
		t.Error("tcp read after cancel succeeded")
	}
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("reads took %s: the cancellation did not end them", el)
	}
}
