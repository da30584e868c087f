package protocols

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestSecret(t *testing.T) {
	s := Secret("hunter2")
	b, _ := yaml.Marshal(map[string]Secret{"password": s})
	for _, out := range []string{fmt.Sprint(s), fmt.Sprintf("%v %+v %#v %s", s, s, s, s), string(b)} {
		if out == "" || strings.Contains(out, "hunter2") {
			t.Errorf("secret printed: %q", out)
		}
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "pw")
	if err := os.WriteFile(f, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		inline Secret
		file   string
		want   string
		err    bool
	}{
		{"inline", "", "inline", false},
		{"", f, "s3cret", false},
		{"x", f, "", true},
		{"", filepath.Join(dir, "missing"), "", true},
	} {
		got, err := LoadSecret(c.inline, c.file)
		if (err != nil) != c.err || got.Reveal() != c.want {
			t.Errorf("LoadSecret(%q, %q) = %q, %v", c.inline, c.file, got.Reveal(), err)
		}
	}
}
