package hytale

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type expected struct {
	Description string
	Players     int64
	MaxPlayers  int64 `json:"max_players"`
	Error       string
	Message     *string
}

// TestVectors runs the hand-built vectors in testdata/.
func TestVectors(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.expected.json")
	if len(files) == 0 {
		t.Fatal("no test vectors in testdata/")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".expected.json")
		t.Run(name, func(t *testing.T) {
			var e expected
			js, err := os.ReadFile(f)
			if err == nil {
				err = json.Unmarshal(js, &e)
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join("testdata", name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			st, err := decode(b)
			if e.Error != "" {
				if got := wire.Reason(err); got != e.Error {
					t.Fatalf("error %v (reason %q), want reason %q", err, got, e.Error)
				}
				if e.Message != nil && !strings.HasSuffix(err.Error(), ": "+strconv.Quote(*e.Message)) {
					t.Errorf("error %q does not end with the server's message %q", err, *e.Message)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if st.Players != e.Players || st.MaxPlayers != e.MaxPlayers {
				t.Errorf("got %+v, want %d/%d", st, e.Players, e.MaxPlayers)
			}
		})
	}
}

func TestDecodeErrorWrapsServer(t *testing.T) {
	_, err := decode([]byte("ERROR Rate limit exceeded\n"))
	if !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), "Rate limit exceeded") {
		t.Errorf("err = %v", err)
	}
	// A hostile message is quoted, never printed raw into logs.
	_, err = decode([]byte("ERROR \x1b[31mred\xff\n"))
	// Byte-wise: ContainsAny would read "\xff" as U+FFFD, not as the raw byte.
	if msg := err.Error(); !errors.Is(err, wire.ErrServer) || strings.Contains(msg, "\x1b") || strings.Contains(msg, "\xff") {
		t.Errorf("err = %q", err)
	}
}
