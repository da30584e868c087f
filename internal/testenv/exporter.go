package testenv

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// builder builds the exporter once.
type builder struct {
	once      sync.Once
	dir, path string
	err       error
}

var build builder

// BuildExporter builds gameserver_exporter from the module root at root, once per
// test binary, static (CGO_ENABLED=0: the same binary serves the flag checks, the
// end-to-end tests and the container), into a temporary directory (the checkout
// stays clean) that RemoveBuilt deletes.
func BuildExporter(root string) (string, error) { return build.build(root) }

func (b *builder) build(root string) (string, error) {
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "gse-test-bin-"); b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "gameserver_exporter")
		cmd := exec.Command("go", "build", "-trimpath", "-o", b.path, ".")
		cmd.Dir, cmd.Env = root, append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	return b.path, b.err
}

// ExporterBinary is BuildExporter failing the test on an error.
func ExporterBinary(t testing.TB, root string) string {
	t.Helper()
	p, err := BuildExporter(root)
	must(t, err)
	return p
}

// RemoveBuilt removes what BuildExporter built; TestMain calls it after m.Run.
func RemoveBuilt() { build.remove() }

func (b *builder) remove() {
	if b.dir != "" {
		os.RemoveAll(b.dir)
	}
}

// Exporter is an exporter process listening on Addr (loopback).
type Exporter struct {
	*Proc
	Addr, Base string // host:port, http://host:port
}

// StartExporter runs bin on a free loopback port with args and waits until it is
// ready; it stops when the test ends.
func StartExporter(t testing.TB, bin string, args ...string) *Exporter {
	t.Helper()
	addr := FreeAddr(t)
	e := &Exporter{Addr: addr, Base: "http://" + addr}
	e.Proc = StartProc(t, "exporter", t.TempDir(), nil, append([]string{bin, "--web.listen-address=" + addr}, args...)...)
	c := &http.Client{Timeout: 5 * time.Second}
	WaitFor(t, 60*time.Second, "the exporter to be ready", func() (bool, string) {
		e.FailIfExited(t)
		return HTTPOK(c, e.Base+"/-/ready")
	})
	return e
}

// Get fetches path and returns the status and the body.
func (e *Exporter) Get(t testing.TB, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(e.Base + path)
	must(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// HTTPOK reports whether GET u answers 200, and the status seen.
func HTTPOK(c *http.Client, u string) (bool, string) {
	resp, err := c.Get(u)
	if err != nil {
		return false, err.Error()
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK, resp.Status
}
