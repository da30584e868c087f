package hytale

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
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
	for _, name := range prototest.Names(t, ".expected.json") {
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[expected](t, filepath.Join("testdata", name+".expected.json"))
			st, err := decode(prototest.File(t, name+".bin"))
			if prototest.CheckError(t, err, e.Error, e.Message) {
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
