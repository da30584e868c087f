package hytale

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestVectors runs the hand-built vectors in testdata/: the counts of the OK
// line, or the error and the server's message it quotes.
func TestVectors(t *testing.T) {
	for _, name := range prototest.Names(t, ".expected.json") {
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[prototest.Expected](t, filepath.Join("testdata", name+".expected.json"))
			st, err := decode(prototest.File(t, name+".bin"))
			prototest.CheckExpected(t, e, &protocols.Result{Players: protocols.Known(st.Players), MaxPlayers: protocols.Known(st.MaxPlayers)}, err)
		})
	}
}

// A hostile message is quoted, never printed raw into logs.
func TestDecodeErrorQuoted(t *testing.T) {
	_, err := decode([]byte("ERROR \x1b[31mred\xff\n"))
	// Byte-wise: ContainsAny would read "\xff" as U+FFFD, not as the raw byte.
	if msg := err.Error(); !errors.Is(err, wire.ErrServer) || strings.Contains(msg, "\x1b") || strings.Contains(msg, "\xff") {
		t.Errorf("err = %q", err)
	}
}
