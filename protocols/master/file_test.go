package master

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestDecodeFile: the committed file of targets, comments, blanks, a repeat and
// an unusable address.
func TestDecodeFile(t *testing.T) {
	c := newCollector(100)
	err := decodeFile(prototest.File(t, "file_targets.txt"), c)
	l := c.done(nil)
	want := "192.0.2.1:27015 192.0.2.2:27016 [2001:db8::7]:7777 game.example.org:25565 198.51.100.9:2302"
	if got := targets(l); got != want || l.Skipped != 2 || l.Capped || err != nil {
		t.Fatalf("%v skipped %d capped %v (%v), want %s", got, l.Skipped, l.Capped, err, want)
	}
}

// TestFileMalformed: a line that is no host:port fails the file, named by its
// number and never quoted (the file could be anything).
func TestFileMalformed(t *testing.T) {
	for _, line := range []string{
		"192.0.2.1", "192.0.2.1:0", "192.0.2.1:65536", "192.0.2.1:+80", "192.0.2.1:port",
		"root:$6$hunter2$abc:19000:0:99999:7:::", "hunter2 192.0.2.1:80", "[fe80::1%eth0]:80",
		"http://192.0.2.1:80/", "bad_host!:80", "\x00\x01:80",
	} {
		c := newCollector(100)
		err := decodeFile([]byte("# ok\n192.0.2.1:1\n"+line+"\n"), c)
		if !errors.Is(err, wire.ErrMalformed) || err.Error() != "malformed: line 3: not host:port" {
			t.Errorf("%q: %v", line, err)
		}
	}
}

// targets is the list's entries, space-separated.
func targets(l *List) string {
	var s []string
	for _, e := range l.Entries {
		s = append(s, e.Target())
	}
	return strings.Join(s, " ")
}

func writeFile(t *testing.T, content string) string {
	p := filepath.Join(t.TempDir(), "targets.txt")
	prototest.WriteFile(t, p, content)
	return p
}

// TestFileList: the file is re-read at every refresh, and capped.
func TestFileList(t *testing.T) {
	p := writeFile(t, "192.0.2.1:1\n192.0.2.2:2\n")
	l := lister(t, Source{Type: TypeFile, Path: p})
	got, err := l.List(prototest.Context(t, time.Second), wire.NewTrace())
	if err != nil || len(got.Entries) != 2 {
		t.Fatalf("%+v %v", got, err)
	}
	os.WriteFile(p, []byte("192.0.2.3:3\n192.0.2.4:4\r\n192.0.2.5:5"), 0o600)
	got, err = l.List(prototest.Context(t, time.Second), nil)
	if err != nil || len(got.Entries) != 3 || got.Entries[2].Target() != "192.0.2.5:5" {
		t.Fatalf("re-read: %+v %v", got, err)
	}
	capped, err := list(t, Source{Type: TypeFile, Path: p, MaxEntries: 2}, time.Second)
	if err != nil || len(capped.Entries) != 2 || !capped.Capped {
		t.Fatalf("capped: %+v %v", capped, err)
	}
}

// TestFileRefused: what is not a small regular file is refused, without
// reading it and without quoting it.
func TestFileRefused(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge")
	f, err := os.Create(huge)
	prototest.NoError(t, err)
	f.Truncate(MaxFile + 1) // sparse: no disk used
	f.Close()
	secret := writeFile(t, "root:$6$hunter2$abc:19000:0:99999:7:::\n")
	cases := []struct {
		path string
		want error
	}{
		{huge, wire.ErrTooLarge},
		{dir, wire.ErrServer},
		{filepath.Join(dir, "missing"), wire.ErrServer},
		{"/proc/self/environ", wire.ErrServer},
		{secret, wire.ErrMalformed},
	}
	for _, c := range cases {
		_, err := list(t, Source{Type: TypeFile, Path: c.path}, time.Second)
		if !errors.Is(err, c.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: %v, want %v", c.path, err, c.want)
		}
	}
}

// FuzzDecodeFile: no file panics the file decoder; it keeps no more targets
// than the file has lines, each a usable address or a host name with a port,
// and an error never quotes the file.
func FuzzDecodeFile(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		c := newCollector(3)
		err := decodeFile(b, c)
		l := c.done(nil)
		if len(l.Entries) > 3 || len(l.Entries) > bytes.Count(b, []byte("\n"))+1 {
			t.Fatalf("%d entries from %d lines", len(l.Entries), bytes.Count(b, []byte("\n"))+1)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "malformed: line ") {
			t.Fatalf("error %q", err)
		}
		for _, e := range l.Entries {
			if e.Host == "" && !usable(e.Addr) || e.Host != "" && (e.Addr.IsValid() || !utf8.ValidString(e.Host)) {
				t.Fatalf("entry without one usable address: %+v", e)
			}
		}
	})
}
