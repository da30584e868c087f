package protocols

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestReadFile: only regular files, read with a cap (hostile round, row 2:
// password_file: /dev/zero grew the process to 24 GB; a FIFO blocked the reload).
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "pw")
	os.WriteFile(good, []byte("hunter2\n"), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(good, link)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, MaxSecretFile+1), 0o600)
	fifo := filepath.Join(dir, "fifo")
	hasFIFO := runtime.GOOS != "windows" && mkfifo(fifo) == nil
	tests := []struct {
		path string
		err  string // "" = read
	}{
		{good, ""},
		{link, ""},
		{big, "over the limit"},
		{dir, "not a regular file"},
		{filepath.Join(dir, "absent"), "no such file"},
	}
	if runtime.GOOS == "linux" {
		tests = append(tests, []struct{ path, err string }{
			{"/dev/zero", "not the operator's data"},
			{"/proc/self/environ", "not the operator's data"},
		}...)
	}
	if hasFIFO {
		tests = append(tests, struct{ path, err string }{fifo, "not a regular file"})
	}
	for _, tc := range tests {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(tc.path, MaxSecretFile); done <- err }()
		select {
		case err := <-done:
			if (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("%s: %v, want %q", tc.path, err, tc.err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: ReadFile blocked", tc.path)
		}
	}
	if s, err := LoadSecret("", link); err != nil || s.Reveal() != "hunter2" {
		t.Errorf("LoadSecret through a link: %q %v", s.Reveal(), err)
	}
}
