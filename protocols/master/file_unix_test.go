//go:build unix

package master

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestFileFIFO: a FIFO is refused at once (opening one to read would wait for
// a writer, holding the refresh).
func TestFileFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := list(t, Source{Type: TypeFile, Path: p}, 5*time.Second); !errors.Is(err, wire.ErrServer) {
		t.Fatalf("fifo: %v", err)
	}
}
