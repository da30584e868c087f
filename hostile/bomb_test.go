package hostile

import (
	"bytes"
	"io"
	"os/exec"
	"sync"
	"testing"
)

var bomb struct {
	once   sync.Once
	stream []byte
	err    error
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// bzip2Bomb returns a bzip2 stream that decompresses to 2 GiB of zeros: 64 MiB of
// zeros compressed by the bzip2 command (about 80 bytes), 32 times over (Go's
// decoder reads concatenated streams as one). compress/bzip2 cannot compress, hence
// the command; the test skips when it is missing.
func bzip2Bomb(t testing.TB) []byte {
	t.Helper()
	path, err := exec.LookPath("bzip2")
	if err != nil {
		t.Skip("the bzip2 command is not installed: skipping the bzip2 bomb")
	}
	bomb.once.Do(func() {
		cmd := exec.Command(path, "-9", "-c")
		cmd.Stdin = io.LimitReader(zeros{}, 64<<20)
		var one []byte
		if one, bomb.err = cmd.Output(); bomb.err == nil {
			bomb.stream = bytes.Repeat(one, 32)
		}
	})
	if bomb.err != nil {
		t.Fatalf("bzip2: %v", bomb.err)
	}
	return bomb.stream
}
